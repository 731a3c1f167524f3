/**
 * The `OrganiserCatalog` port on PostgreSQL: events and the audit log here, slots and sections in
 * SqlOrganiserParts. Every query is scoped by organisation; every write is one transaction with its
 * audit entry; rows a write depends on are locked (a child's parent FOR SHARE, a deleted event FOR UPDATE).
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { EventNotFound, InUse, OrganiserCatalog, ReferenceInvalid } from "@forms/domain"
import { deleteFailure, sqlFailure } from "../../sql/SqlFailure.js"
import { AuditRow, eventColumns, EventRow } from "./catalogRows.js"
import { epochMs } from "../../sql/sqlValues.js"
import { makeSqlOrganiserParts } from "./SqlOrganiserParts.js"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { toPage } from "../../sql/paging.js"

const decodeEvents = decodeRows(EventRow)
const decodeAudit = decodeRows(AuditRow)
const auditColumns = `id::text AS id, ${epochMs("at")} AS at, api_key_id, action, resource_type, resource_id`

export const makeSqlOrganiserCatalog = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(eventColumns)
  const parts = yield* makeSqlOrganiserParts

  const selectEvent = (organisationId: string, id: string, lock: "" | "FOR UPDATE" | "FOR SHARE" = "") =>
    sql`SELECT ${columns} FROM events e WHERE e.id = ${id} AND e.organisation_id = ${organisationId} ${sql.literal(lock)}`.pipe(
      Effect.flatMap(decodeEvents),
      Effect.map((rows) => Option.fromUndefinedOr(rows[0]))
    )

  /** A top-level event of the organisation, locked against becoming a child or being deleted meanwhile. */
  const topLevelParent = (organisationId: string, id: string) =>
    Effect.map(selectEvent(organisationId, id, "FOR SHARE"), (found) =>
      Option.isSome(found) && found.value.parent_event_id === null)

  const hasChildren = (id: string) =>
    Effect.map(sql`SELECT 1 FROM events WHERE parent_event_id = ${id} LIMIT 1`, (rows) => rows.length > 0)

  return OrganiserCatalog.of({
    ...parts,
    listEvents: (organisationId, page) => {
      const after = page.after
      return sql`SELECT ${columns} FROM events e WHERE e.organisation_id = ${organisationId}
        AND (${after === undefined} OR e.created_at < ${after === undefined ? null : new Date(after.created_at)}::timestamptz
          OR (e.created_at = ${after === undefined ? null : new Date(after.created_at)}::timestamptz
              AND e.id COLLATE "C" < ${after?.id ?? null}::text COLLATE "C"))
        ORDER BY e.created_at DESC, e.id COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(
        Effect.flatMap(decodeEvents),
        Effect.map((rows) => toPage(rows, page.limit)),
        Effect.catchTag("SqlError", sqlFailure)
      )
    },
    findEvent: (organisationId, id) => selectEvent(organisationId, id).pipe(Effect.catchTag("SqlError", sqlFailure)),
    createEvent: (actor, input, at) =>
      sql.withTransaction(Effect.gen(function*() {
        if (input.parent_event_id !== null && !(yield* topLevelParent(actor.organisation_id, input.parent_event_id))) {
          return yield* new ReferenceInvalid({ field: "parent_event_id" })
        }
        const rows = yield* sql`INSERT INTO events AS e (id, organisation_id, name, parent_event_id, created_at)
          VALUES (gen_random_uuid()::text, ${actor.organisation_id}, ${input.name}, ${input.parent_event_id},
                  ${new Date(at)}::timestamptz)
          RETURNING ${columns}`.pipe(Effect.flatMap(decodeEvents))
        const event = rows[0]
        if (event === undefined) return yield* Effect.die("the insert returned no row")
        yield* appendAudit(sql, actor, at, { action: "event.created", resource_type: "event", resource_id: event.id })
        return event
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    updateEvent: (actor, id, patch, at) =>
      sql.withTransaction(Effect.gen(function*() {
        const found = yield* selectEvent(actor.organisation_id, id, "FOR UPDATE")
        if (Option.isNone(found)) return yield* new EventNotFound()
        const parent = patch.parent_event_id
        if (parent !== undefined && parent !== null) {
          const valid = parent !== id && !(yield* hasChildren(id)) && (yield* topLevelParent(actor.organisation_id, parent))
          if (!valid) return yield* new ReferenceInvalid({ field: "parent_event_id" })
        }
        const name = patch.name ?? found.value.name
        const parentId = parent === undefined ? found.value.parent_event_id : parent
        const rows = yield* sql`UPDATE events AS e SET name = ${name}, parent_event_id = ${parentId}
          WHERE e.id = ${id} RETURNING ${columns}`.pipe(Effect.flatMap(decodeEvents))
        yield* appendAudit(sql, actor, at, { action: "event.updated", resource_type: "event", resource_id: id })
        return rows[0] ?? found.value
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    deleteEvent: (actor, id, at) =>
      sql.withTransaction(Effect.gen(function*() {
        const found = yield* selectEvent(actor.organisation_id, id, "FOR UPDATE")
        if (Option.isNone(found)) return yield* new EventNotFound()
        // Every table that refers to an event (CONTRACT §12: children, forms, slots, sections, engagements).
        const used = yield* sql`SELECT
          EXISTS (SELECT 1 FROM events WHERE parent_event_id = ${id})
          OR EXISTS (SELECT 1 FROM form_schemas WHERE event_id = ${id})
          OR EXISTS (SELECT 1 FROM time_slots WHERE event_id = ${id})
          OR EXISTS (SELECT 1 FROM event_sections WHERE event_id = ${id})
          OR EXISTS (SELECT 1 FROM engagements WHERE event_id = ${id})
          OR EXISTS (SELECT 1 FROM submissions WHERE event_id = ${id}) AS used`
        if (used[0]?.["used"] === true) return yield* new InUse()
        yield* sql`DELETE FROM events WHERE id = ${id}`
        yield* appendAudit(sql, actor, at, { action: "event.deleted", resource_type: "event", resource_id: id })
      })).pipe(Effect.catchTag("SqlError", deleteFailure)),
    listAudit: (organisationId, page) => {
      const after = page.after
      const at = after === undefined ? null : new Date(after.created_at)
      return sql`SELECT ${sql.literal(auditColumns)} FROM audit_log WHERE organisation_id = ${organisationId}
        AND (${after === undefined} OR at < ${at}::timestamptz
          OR (at = ${at}::timestamptz AND id::text COLLATE "C" < ${after?.id ?? null}::text COLLATE "C"))
        ORDER BY at DESC, id::text COLLATE "C" DESC LIMIT ${page.limit + 1}`.pipe(
        Effect.flatMap(decodeAudit),
        Effect.map((rows) => toPage(rows, page.limit)),
        Effect.catchTag("SqlError", sqlFailure)
      )
    }
  })
})

export const SqlOrganiserCatalog = { layer: Layer.effect(OrganiserCatalog, makeSqlOrganiserCatalog) } as const
