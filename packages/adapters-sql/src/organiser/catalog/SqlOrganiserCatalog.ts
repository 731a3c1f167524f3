/**
 * The `OrganiserCatalog` port on PostgreSQL: events and the audit log here, time slots (SqlTimeSlots.ts) and event
 * sections (SqlEventSections.ts) beside. Every query is scoped by organisation; every write is one transaction
 * with its audit entry; rows a write depends on are locked (a child's parent FOR SHARE, a deleted event FOR UPDATE),
 * two events in the order of their ids.
 */
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { type Actor, AuditEntry, EventNotFound, InUse, OrganiserCatalog, ReferenceInvalid, SlotTimesInvalid } from "@forms/domain"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { newestFirst, toPage } from "../../sql/paging.js"
import { deleteFailure, sqlFailure } from "../../sql/SqlFailure.js"
import { epochMs } from "../../sql/sqlValues.js"
import { eventColumns, EventRow } from "./eventRows.js"
import { makeEventSectionMethods } from "./SqlEventSections.js"
import { makeTimeSlotMethods } from "./SqlTimeSlots.js"
import { recomputeSlotInstants } from "../../shifts/slotInstantsSql.js"

const decodeEvents = decodeRows(EventRow)

const auditColumns = `id::text AS id, ${epochMs("at")} AS at, api_key_id, action, resource_type, resource_id`
const decodeAudit = decodeRows(AuditEntry)

export const makeSqlOrganiserCatalog = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(eventColumns)

  const selectEvent = (organisationId: string, id: string, options: { readonly lock?: "FOR UPDATE" | "FOR SHARE" } = {}) =>
    sql`SELECT ${columns} FROM events e WHERE e.id = ${id} AND e.organisation_id = ${organisationId} ${sql.literal(options.lock ?? "")}`.pipe(
      Effect.flatMap(decodeEvents),
      Effect.map((rows) => Option.fromUndefinedOr(rows[0]))
    )

  /** A top-level event of the organisation, locked against becoming a child or being deleted meanwhile. */
  const topLevelParent = (organisationId: string, id: string) =>
    Effect.map(selectEvent(organisationId, id, { lock: "FOR SHARE" }), (found) =>
      Option.isSome(found) && found.value.parent_event_id === null)

  const hasChildren = (id: string) =>
    Effect.map(sql`SELECT 1 FROM events WHERE parent_event_id = ${id} LIMIT 1`, (rows) => rows.length > 0)

  const audit = (actor: Actor, at: number, action: string, id: string) =>
    appendAudit(sql, actor, at, { action, resource_type: "event", resource_id: id })

  return OrganiserCatalog.of({
    ...makeTimeSlotMethods(sql),
    ...makeEventSectionMethods(sql),
    listEvents: Effect.fn("SqlOrganiserCatalog.listEvents")(
      (organisationId, page) =>
        sql`SELECT ${columns} FROM events e WHERE e.organisation_id = ${organisationId}
          AND ${newestFirst(sql, { created: "e.created_at", id: "e.id" }, page)}`.pipe(
          Effect.flatMap(decodeEvents),
          Effect.map((rows) => toPage(rows, page.limit))
        ),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findEvent: Effect.fn("SqlOrganiserCatalog.findEvent")(
      (organisationId, id) => selectEvent(organisationId, id),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    createEvent: Effect.fn("SqlOrganiserCatalog.createEvent")(
      (actor, input, at) =>
        sql.withTransaction(Effect.gen(function*() {
          if (input.parent_event_id !== null && !(yield* topLevelParent(actor.organisation_id, input.parent_event_id))) {
            return yield* new ReferenceInvalid({ field: "parent_event_id" })
          }
          const rows = yield* sql`INSERT INTO events AS e (id, organisation_id, name, parent_event_id, timezone, created_at)
            VALUES (gen_random_uuid()::text, ${actor.organisation_id}, ${input.name}, ${input.parent_event_id},
                    ${input.timezone ?? null}, ${new Date(at)}::timestamptz)
            RETURNING ${columns}`.pipe(Effect.flatMap(decodeEvents))
          const event = rows[0]
          if (event === undefined) return yield* Effect.die("the insert returned no row")
          yield* audit(actor, at, "event.created", event.id)
          return event
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    updateEvent: Effect.fn("SqlOrganiserCatalog.updateEvent")(
      (actor, id, patch, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const parent = patch.parent_event_id
          const other = parent !== undefined && parent !== null && parent !== id ? parent : undefined
          // The two events are locked in the order of their ids, whichever is moved: two writers that make each
          // the other's child wait for each other in turn, never crosswise (a deadlock); the second sees the first.
          const lockParent = other === undefined ? Effect.succeed(false) : topLevelParent(actor.organisation_id, other)
          const parentFirst = other !== undefined && other < id
          const parentTopLevel = parentFirst ? yield* lockParent : false
          const found = yield* selectEvent(actor.organisation_id, id, { lock: "FOR UPDATE" })
          if (Option.isNone(found)) return yield* new EventNotFound()
          if (parent !== undefined && parent !== null) {
            const topLevel = parentFirst ? parentTopLevel : yield* lockParent
            const valid = parent !== id && topLevel && !(yield* hasChildren(id))
            if (!valid) return yield* new ReferenceInvalid({ field: "parent_event_id" })
          }
          const name = patch.name ?? found.value.name
          const parentId = parent === undefined ? found.value.parent_event_id : parent
          const timezone = patch.timezone === undefined ? found.value.timezone : patch.timezone
          // A child's zone change reads its parent's zone: the parent is held against a change meanwhile.
          if (patch.timezone !== undefined && parent === undefined && parentId !== null) {
            yield* selectEvent(actor.organisation_id, parentId, { lock: "FOR SHARE" })
          }
          const rows = yield* sql`UPDATE events AS e SET name = ${name}, parent_event_id = ${parentId}, timezone = ${timezone}
            WHERE e.id = ${id} RETURNING ${columns}`.pipe(Effect.flatMap(decodeEvents))
          // The slots of the event and of its children move with its zone, in this transaction (CONTRACT §22).
          if ((patch.timezone !== undefined || parent !== undefined) && !(yield* recomputeSlotInstants(sql, [id]))) {
            return yield* new SlotTimesInvalid({ field: patch.timezone !== undefined ? "timezone" : "parent_event_id" })
          }
          yield* audit(actor, at, "event.updated", id)
          return rows[0] ?? found.value
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    deleteEvent: Effect.fn("SqlOrganiserCatalog.deleteEvent")(
      (actor, id, at) =>
        sql.withTransaction(Effect.gen(function*() {
          const found = yield* selectEvent(actor.organisation_id, id, { lock: "FOR UPDATE" })
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
          yield* audit(actor, at, "event.deleted", id)
        })),
      Effect.catchTag("SqlError", deleteFailure)
    ),
    listAudit: Effect.fn("SqlOrganiserCatalog.listAudit")(
      (organisationId, page) =>
        sql`SELECT ${sql.literal(auditColumns)} FROM audit_log WHERE organisation_id = ${organisationId}
          AND ${newestFirst(sql, { created: "at", id: "id::text" }, page)}`.pipe(
          Effect.flatMap(decodeAudit),
          Effect.map((rows) => toPage(rows, page.limit))
        ),
      Effect.catchTag("SqlError", sqlFailure)
    )
  })
})

export const SqlOrganiserCatalog = { layer: Layer.effect(OrganiserCatalog, makeSqlOrganiserCatalog) } as const
