/**
 * The `OrganiserForms` port on PostgreSQL. Every write is one transaction with its audit entry; a write
 * under an expected revision locks the form's row and compares it there, so of two writers of one revision
 * the second sees the first's revision and conflicts. Parts are written anew by id
 * (their ids are scoped to the form: two forms may use the same ones).
 */
import { Array as Arr, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import {
  type Actor,
  type AdminForm,
  type ExpectedRevision,
  type FormDefinition,
  FormNotFound,
  InUse,
  OrganiserForms,
  ReferenceInvalid,
  RevisionConflict,
  type Unavailable
} from "@forms/domain"
import { randomUUID } from "node:crypto"
import { deleteFailure, sqlFailure } from "../../sql/SqlFailure.js"
import { AdminFormRow, AdminFormSummaryRow, selectAdminForms, summaryColumns } from "./adminFormRows.js"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { toPage } from "../../sql/paging.js"

const decodeForms = decodeRows(AdminFormRow)
const decodeSummaries = decodeRows(AdminFormSummaryRow)

const at = (ms: number | null): Date | null => (ms === null ? null : new Date(ms))
const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value))
const holds = (expected: ExpectedRevision, revision: number) => expected === "any" || expected === revision
const entry = (action: string, id: string) => ({ action, resource_type: "form", resource_id: id })

/** A second artist_advance form of an organisation (the partial unique index) is a bad `type`. */
const advanceTaken = (error: SqlError): Effect.Effect<never, ReferenceInvalid | Unavailable> =>
  error.reason._tag === "UniqueViolation" && error.reason.constraint === "form_schemas_one_advance_idx"
    ? Effect.fail(new ReferenceInvalid({ field: "type" }))
    : sqlFailure(error)

export const makeSqlOrganiserForms = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const select = sql.literal(selectAdminForms)

  const selectForm = (organisationId: string | undefined, id: string) =>
    sql`${select} WHERE s.id = ${id} AND (${organisationId === undefined} OR s.organisation_id = ${organisationId ?? null})`.pipe(
      Effect.flatMap(decodeForms),
      Effect.map((rows): Option.Option<AdminForm> => Option.fromUndefinedOr(rows[0]))
    )

  const requireForm = (organisationId: string | undefined, id: string) =>
    Effect.flatMap(selectForm(organisationId, id), Option.match({
      onNone: () => Effect.die(new Error("the form written is not found")),
      onSome: Effect.succeed
    }))

  /**
   * The revision of the organisation's form, locked for this transaction; None when unknown. An edit takes
   * `FOR NO KEY UPDATE`: it serialises writers of the form without holding up the public writes that refer to
   * it meanwhile (their foreign-key checks take `FOR KEY SHARE`). A delete takes `FOR UPDATE`, which does hold
   * them up, so that no submission is inserted between its check for submissions and its DELETE.
   */
  const lockRevision = (organisationId: string, id: string, mode: "edit" | "delete") =>
    Effect.map(
      sql<{ readonly revision: number }>`SELECT revision FROM form_schemas
        WHERE id = ${id} AND organisation_id = ${organisationId} ${sql.literal(mode === "edit" ? "FOR NO KEY UPDATE" : "FOR UPDATE")}`,
      (rows) => Option.fromUndefinedOr(rows[0]?.revision)
    )

  /** The event is the organisation's (locked against a delete meanwhile). */
  const eventOk = (organisationId: string, eventId: string | null) =>
    eventId === null
      ? Effect.succeed(true)
      : Effect.map(
        sql`SELECT 1 FROM events WHERE id = ${eventId} AND organisation_id = ${organisationId} FOR SHARE`,
        (rows) => rows.length > 0
      )

  const checkReferences = (organisationId: string, definition: FormDefinition) =>
    Effect.gen(function*() {
      if (!(yield* eventOk(organisationId, definition.event_id))) return yield* new ReferenceInvalid({ field: "event_id" })
    })

  /** The form's sections and fields written anew: the ones not sent are gone, the others keep their ids. */
  const writeParts = (schemaId: string, definition: FormDefinition) =>
    Effect.gen(function*() {
      yield* sql`DELETE FROM form_fields WHERE schema_id = ${schemaId}`
      yield* sql`DELETE FROM form_sections WHERE schema_id = ${schemaId}`
      const sections = definition.sections.map((s): Record<string, unknown> => ({ schema_id: schemaId, id: s.id, name: s.name, position: s.position }))
      if (Arr.isReadonlyArrayNonEmpty(sections)) yield* sql`INSERT INTO form_sections ${sql.insert(sections)}`
      const fields = definition.fields.map((f): Record<string, unknown> => ({
        schema_id: schemaId,
        id: f.id,
        section_id: f.section_id,
        slug: f.slug,
        label: f.label,
        type: f.type,
        is_required: f.is_required,
        options: json(f.options),
        validation_rules: json(f.validation_rules),
        is_unique: f.is_unique,
        position: f.position,
        maps_to: f.maps_to
      }))
      if (Arr.isReadonlyArrayNonEmpty(fields)) yield* sql`INSERT INTO form_fields ${sql.insert(fields)}`
    })

  return OrganiserForms.of({
    listForms: (organisationId, page) => {
      const after = page.after
      const afterAt = after === undefined ? null : new Date(after.created_at)
      return sql`SELECT ${sql.literal(summaryColumns)} FROM form_schemas s WHERE s.organisation_id = ${organisationId}
        AND (${after === undefined} OR s.created_at < ${afterAt}::timestamptz
          OR (s.created_at = ${afterAt}::timestamptz AND s.id COLLATE "C" < ${after?.id ?? null}::text COLLATE "C"))
        ORDER BY s.created_at DESC, s.id COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(
        Effect.flatMap(decodeSummaries),
        Effect.map((rows) => toPage(rows, page.limit)),
        Effect.catchTag("SqlError", sqlFailure)
      )
    },
    findForm: (organisationId, id) => selectForm(organisationId, id).pipe(Effect.catchTag("SqlError", sqlFailure)),
    advanceFormOf: (organisationId) =>
      sql<{ readonly id: string }>`SELECT id FROM form_schemas
        WHERE organisation_id = ${organisationId} AND type = 'artist_advance' LIMIT 1`.pipe(
        Effect.map((rows) => Option.fromUndefinedOr(rows[0]?.id)),
        Effect.catchTag("SqlError", sqlFailure)
      ),
    createForm: (actor, input, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const d = input.definition
        yield* checkReferences(actor.organisation_id, d)
        const id = randomUUID()
        const time = new Date(now)
        yield* sql`INSERT INTO form_schemas (id, organisation_id, event_id, name, type, status, public_token,
            opens_at, closes_at, tags, revision, definition_hash, created_at, updated_at)
          VALUES (${id}, ${actor.organisation_id}, ${d.event_id}, ${d.name}, ${d.type}, ${d.status}, ${input.public_token},
            ${at(d.opens_at)}::timestamptz, ${at(d.closes_at)}::timestamptz, ${JSON.stringify(d.tags)}::jsonb, 1, NULL,
            ${time}::timestamptz, ${time}::timestamptz)`
        yield* writeParts(id, d)
        yield* appendAudit(sql, actor, now, entry("form.created", id))
        return yield* requireForm(actor.organisation_id, id)
      })).pipe(Effect.catchTag("SqlError", advanceTaken)),
    replaceForm: (actor, id, d, expected, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const revision = yield* lockRevision(actor.organisation_id, id, "edit")
        if (Option.isNone(revision)) return yield* new FormNotFound({})
        if (!holds(expected, revision.value)) return yield* new RevisionConflict()
        yield* checkReferences(actor.organisation_id, d)
        // definition_hash null: the next fixture load naming this form overwrites it (a change, +1).
        yield* sql`UPDATE form_schemas SET event_id = ${d.event_id}, name = ${d.name}, type = ${d.type},
            status = ${d.status}, opens_at = ${at(d.opens_at)}::timestamptz, closes_at = ${at(d.closes_at)}::timestamptz,
            tags = ${JSON.stringify(d.tags)}::jsonb, revision = revision + 1, definition_hash = NULL,
            updated_at = ${new Date(now)}::timestamptz
          WHERE id = ${id}`
        yield* writeParts(id, d)
        yield* appendAudit(sql, actor, now, entry("form.updated", id))
        return yield* requireForm(actor.organisation_id, id)
      })).pipe(Effect.catchTag("SqlError", advanceTaken)),
    patchForm: (actor, id, patch, expected, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const revision = yield* lockRevision(actor.organisation_id, id, "edit")
        if (Option.isNone(revision)) return yield* new FormNotFound({})
        if (!holds(expected, revision.value)) return yield* new RevisionConflict()
        const has = (key: keyof typeof patch) => patch[key] !== undefined
        yield* sql`UPDATE form_schemas SET
            name = CASE WHEN ${has("name")} THEN ${patch.name ?? null}::text ELSE name END,
            status = CASE WHEN ${has("status")} THEN ${patch.status ?? null}::text ELSE status END,
            opens_at = CASE WHEN ${has("opens_at")} THEN ${at(patch.opens_at ?? null)}::timestamptz ELSE opens_at END,
            closes_at = CASE WHEN ${has("closes_at")} THEN ${at(patch.closes_at ?? null)}::timestamptz ELSE closes_at END,
            tags = CASE WHEN ${has("tags")} THEN ${json(patch.tags ?? null)}::jsonb ELSE tags END,
            revision = revision + 1, definition_hash = NULL, updated_at = ${new Date(now)}::timestamptz
          WHERE id = ${id}`
        yield* appendAudit(sql, actor, now, entry("form.updated", id))
        return yield* requireForm(actor.organisation_id, id)
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    deleteForm: (actor, id, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const revision = yield* lockRevision(actor.organisation_id, id, "delete")
        if (Option.isNone(revision)) return yield* new FormNotFound({})
        const used = yield* sql`SELECT 1 FROM submissions WHERE schema_id = ${id} LIMIT 1`
        if (used.length > 0) return yield* new InUse()
        yield* sql`DELETE FROM form_schemas WHERE id = ${id}`
        yield* appendAudit(sql, actor, now, entry("form.deleted", id))
      })).pipe(Effect.catchTag("SqlError", deleteFailure)),
    rotateFormToken: (actor, id, token, now) =>
      sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql<{ readonly organisation_id: string }>`UPDATE form_schemas
          SET previous_public_token = public_token, public_token = ${token}, token_rotated_at = ${new Date(now)}::timestamptz
          WHERE id = ${id} AND (${actor === undefined} OR organisation_id = ${actor?.organisation_id ?? null})
          RETURNING organisation_id`
        const organisationId = rows[0]?.organisation_id
        if (organisationId === undefined) return yield* new FormNotFound({})
        const by: Actor = actor ?? { organisation_id: organisationId, api_key_id: null }
        yield* appendAudit(sql, by, now, entry("form.token_rotated", id))
        return yield* requireForm(organisationId, id)
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    newId: () => randomUUID()
  })
})

export const SqlOrganiserForms = {
  layer: Layer.effect(OrganiserForms, makeSqlOrganiserForms)
} as const
