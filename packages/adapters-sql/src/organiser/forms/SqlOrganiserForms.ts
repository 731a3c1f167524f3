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
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { newestFirst, toPage } from "../../sql/paging.js"
import { deleteFailure, sqlFailure } from "../../sql/SqlFailure.js"
import { jsonText } from "../../sql/sqlValues.js"
import { eventExists } from "../catalog/eventRows.js"
import { withCancelUntil, withLanguages, withMessages } from "../../forms/FormSchemaRow.js"
import { AdminFormRow, AdminFormSummaryRow, selectAdminForms, summaryColumns } from "./adminFormRows.js"

const decodeAdminForms = decodeRows(AdminFormRow)
const decodeForms = (rows: ReadonlyArray<unknown>) =>
  Effect.map(decodeAdminForms(rows), (forms) => forms.map((form) => withCancelUntil(withLanguages(form))))
const decodeSummaries = decodeRows(AdminFormSummaryRow)

const dateOrNull = (ms: number | null): Date | null => (ms === null ? null : new Date(ms))
const jsonOrNull = (value: unknown): string | null => (value === null ? null : jsonText(value))
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
      Effect.map((rows): Option.Option<AdminForm> => Option.fromUndefinedOr(rows[0]).pipe(Option.map(withMessages)))
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

  /** The form's event (if any) is the organisation's, locked against a delete meanwhile. */
  const checkReferences = Effect.fnUntraced(function*(organisationId: string, definition: FormDefinition) {
    const eventId = definition.event_id
    if (eventId !== null && !(yield* eventExists(sql, organisationId, eventId, { lock: "FOR SHARE" }))) {
      return yield* new ReferenceInvalid({ field: "event_id" })
    }
  })

  /** The form's sections and fields written anew: the ones not sent are gone, the others keep their ids. */
  const writeParts = Effect.fnUntraced(function*(schemaId: string, definition: FormDefinition) {
    yield* sql`DELETE FROM form_fields WHERE schema_id = ${schemaId}`
    yield* sql`DELETE FROM form_sections WHERE schema_id = ${schemaId}`
    const sections = definition.sections.map((s): Record<string, unknown> => ({
      schema_id: schemaId,
      id: s.id,
      name: s.name,
      position: s.position,
      visible_if: jsonOrNull(s.visible_if ?? null)
    }))
    if (Arr.isReadonlyArrayNonEmpty(sections)) yield* sql`INSERT INTO form_sections ${sql.insert(sections)}`
    const fields = definition.fields.map((f): Record<string, unknown> => ({
      schema_id: schemaId,
      id: f.id,
      section_id: f.section_id,
      slug: f.slug,
      label: f.label,
      type: f.type,
      is_required: f.is_required,
      options: jsonOrNull(f.options),
      validation_rules: jsonOrNull(f.validation_rules),
      is_unique: f.is_unique,
      position: f.position,
      maps_to: f.maps_to,
      visible_if: jsonOrNull(f.visible_if ?? null),
      help: f.help ?? null
    }))
    if (Arr.isReadonlyArrayNonEmpty(fields)) yield* sql`INSERT INTO form_fields ${sql.insert(fields)}`
  })

  return OrganiserForms.of({
    listForms: Effect.fn("SqlOrganiserForms.listForms")(
      (organisationId, page) =>
        sql`SELECT ${sql.literal(summaryColumns)} FROM form_schemas s WHERE s.organisation_id = ${organisationId}
          AND ${newestFirst(sql, { created: "s.created_at", id: "s.id" }, page)}`.pipe(
          Effect.flatMap(decodeSummaries),
          Effect.map((rows) => toPage(rows, page.limit))
        ),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findForm: Effect.fn("SqlOrganiserForms.findForm")(
      (organisationId, id) => selectForm(organisationId, id),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    advanceFormOf: Effect.fn("SqlOrganiserForms.advanceFormOf")(
      (organisationId) =>
        sql<{ readonly id: string }>`SELECT id FROM form_schemas
          WHERE organisation_id = ${organisationId} AND type = 'artist_advance' LIMIT 1`,
      Effect.map((rows) => Option.fromUndefinedOr(rows[0]?.id)),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    createForm: Effect.fn("SqlOrganiserForms.createForm")(
      (actor, input, now) =>
        sql.withTransaction(Effect.gen(function*() {
          const d = input.definition
          yield* checkReferences(actor.organisation_id, d)
          const id = randomUUID()
          const time = new Date(now)
          yield* sql`INSERT INTO form_schemas (id, organisation_id, event_id, name, type, status, public_token,
              opens_at, closes_at, tags, messages, languages, translations, cancel_until_hours, revision, definition_hash, created_at, updated_at)
            VALUES (${id}, ${actor.organisation_id}, ${d.event_id}, ${d.name}, ${d.type}, ${d.status}, ${input.public_token},
              ${dateOrNull(d.opens_at)}::timestamptz, ${dateOrNull(d.closes_at)}::timestamptz, ${jsonText(d.tags)}::jsonb,
              ${jsonOrNull(d.messages ?? null)}::jsonb, ${jsonOrNull(d.languages ?? null)}::jsonb, ${jsonOrNull(d.translations ?? null)}::jsonb,
              ${d.cancel_until_hours ?? null}::integer, 1, NULL,
              ${time}::timestamptz, ${time}::timestamptz)`
          yield* writeParts(id, d)
          yield* appendAudit(sql, actor, now, entry("form.created", id))
          return yield* requireForm(actor.organisation_id, id)
        })),
      Effect.catchTag("SqlError", advanceTaken)
    ),
    replaceForm: Effect.fn("SqlOrganiserForms.replaceForm")(
      (actor, id, d, expected, now) =>
        sql.withTransaction(Effect.gen(function*() {
          const revision = yield* lockRevision(actor.organisation_id, id, "edit")
          if (Option.isNone(revision)) return yield* new FormNotFound({})
          if (!holds(expected, revision.value)) return yield* new RevisionConflict()
          yield* checkReferences(actor.organisation_id, d)
          // definition_hash null: the next fixture load naming this form overwrites it (a change, +1).
          yield* sql`UPDATE form_schemas SET event_id = ${d.event_id}, name = ${d.name}, type = ${d.type},
              status = ${d.status}, opens_at = ${dateOrNull(d.opens_at)}::timestamptz, closes_at = ${dateOrNull(d.closes_at)}::timestamptz,
              tags = ${jsonText(d.tags)}::jsonb, messages = ${jsonOrNull(d.messages ?? null)}::jsonb, languages = ${jsonOrNull(d.languages ?? null)}::jsonb,
              translations = ${jsonOrNull(d.translations ?? null)}::jsonb, cancel_until_hours = ${d.cancel_until_hours ?? null}::integer,
              revision = revision + 1, definition_hash = NULL,
              updated_at = ${new Date(now)}::timestamptz
            WHERE id = ${id}`
          yield* writeParts(id, d)
          yield* appendAudit(sql, actor, now, entry("form.updated", id))
          return yield* requireForm(actor.organisation_id, id)
        })),
      Effect.catchTag("SqlError", advanceTaken)
    ),
    patchForm: Effect.fn("SqlOrganiserForms.patchForm")(
      (actor, id, patch, expected, now) =>
        sql.withTransaction(Effect.gen(function*() {
          const revision = yield* lockRevision(actor.organisation_id, id, "edit")
          if (Option.isNone(revision)) return yield* new FormNotFound({})
          if (!holds(expected, revision.value)) return yield* new RevisionConflict()
          const has = (key: keyof typeof patch) => patch[key] !== undefined
          yield* sql`UPDATE form_schemas SET
              name = CASE WHEN ${has("name")} THEN ${patch.name ?? null}::text ELSE name END,
              status = CASE WHEN ${has("status")} THEN ${patch.status ?? null}::text ELSE status END,
              opens_at = CASE WHEN ${has("opens_at")} THEN ${dateOrNull(patch.opens_at ?? null)}::timestamptz ELSE opens_at END,
              closes_at = CASE WHEN ${has("closes_at")} THEN ${dateOrNull(patch.closes_at ?? null)}::timestamptz ELSE closes_at END,
              tags = CASE WHEN ${has("tags")} THEN ${jsonOrNull(patch.tags ?? null)}::jsonb ELSE tags END,
              revision = revision + 1, definition_hash = NULL, updated_at = ${new Date(now)}::timestamptz
            WHERE id = ${id}`
          yield* appendAudit(sql, actor, now, entry("form.updated", id))
          return yield* requireForm(actor.organisation_id, id)
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    deleteForm: Effect.fn("SqlOrganiserForms.deleteForm")(
      (actor, id, now) =>
        sql.withTransaction(Effect.gen(function*() {
          const revision = yield* lockRevision(actor.organisation_id, id, "delete")
          if (Option.isNone(revision)) return yield* new FormNotFound({})
          const used = yield* sql`SELECT 1 FROM submissions WHERE schema_id = ${id} LIMIT 1`
          if (used.length > 0) return yield* new InUse()
          yield* sql`DELETE FROM form_schemas WHERE id = ${id}`
          yield* appendAudit(sql, actor, now, entry("form.deleted", id))
        })),
      Effect.catchTag("SqlError", deleteFailure)
    ),
    rotateFormToken: Effect.fn("SqlOrganiserForms.rotateFormToken")(
      (actor, id, token, now) =>
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
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    newId: () => randomUUID()
  })
})

export const SqlOrganiserForms = {
  layer: Layer.effect(OrganiserForms, makeSqlOrganiserForms)
} as const
