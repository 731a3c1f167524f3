/**
 * The time-slot and event-section half of the `OrganiserCatalog` port on PostgreSQL: an event's parts,
 * scoped through their event's organisation, each write one transaction with its audit entry.
 */
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import {
  type AdminEventSection,
  type AdminTimeSlot,
  EventNotFound,
  EventSectionNotFound,
  type OrganiserCatalog,
  TimeSlotNotFound
} from "@forms/domain"
import { deleteFailure, sqlFailure } from "../../sql/SqlFailure.js"
import { sectionColumns, SectionRow, slotColumns, SlotRow } from "./catalogRows.js"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { toPage } from "../../sql/paging.js"

const decodeSlots = decodeRows(SlotRow)
const decodeSections = decodeRows(SectionRow)

type Parts = Pick<
  typeof OrganiserCatalog.Service,
  | "listTimeSlots"
  | "findTimeSlot"
  | "createTimeSlot"
  | "updateTimeSlot"
  | "deleteTimeSlot"
  | "listEventSections"
  | "findEventSection"
  | "createEventSection"
  | "updateEventSection"
  | "deleteEventSection"
>

export const makeSqlOrganiserParts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const slotCols = sql.literal(slotColumns)
  const sectionCols = sql.literal(sectionColumns)

  /** The event exists in the organisation; locked FOR SHARE inside a write (a delete of it waits). */
  const eventExists = (organisationId: string, eventId: string, lock: boolean) =>
    Effect.map(
      sql`SELECT 1 FROM events WHERE id = ${eventId} AND organisation_id = ${organisationId} ${sql.literal(lock ? "FOR SHARE" : "")}`,
      (rows) => rows.length > 0
    )

  /**
   * With `lock` (inside an update or a delete), the slot's row is locked until the transaction ends: a delete
   * racing an update then waits for it, or the update finds no slot (404), never a slot gone mid-write.
   */
  const selectSlot = (organisationId: string, id: string, lock = false) =>
    sql`SELECT ${slotCols} FROM time_slots t JOIN events e ON e.id = t.event_id
      WHERE t.id = ${id} AND e.organisation_id = ${organisationId} ${sql.literal(lock ? "FOR UPDATE OF t" : "")}`.pipe(
      Effect.flatMap(decodeSlots),
      Effect.map((rows): Option.Option<AdminTimeSlot> => Option.fromUndefinedOr(rows[0]))
    )

  /** `lock`: as `selectSlot`'s. */
  const selectSection = (organisationId: string, id: string, lock = false) =>
    sql`SELECT ${sectionCols} FROM event_sections s JOIN events e ON e.id = s.event_id
      WHERE s.id = ${id} AND e.organisation_id = ${organisationId} ${sql.literal(lock ? "FOR UPDATE OF s" : "")}`.pipe(
      Effect.flatMap(decodeSections),
      Effect.map((rows): Option.Option<AdminEventSection> => Option.fromUndefinedOr(rows[0]))
    )

  const audit = appendAudit.bind(null, sql)

  const parts: Parts = {
    listTimeSlots: (organisationId, eventId, page) =>
      Effect.gen(function*() {
        if (!(yield* eventExists(organisationId, eventId, false))) return yield* new EventNotFound()
        const a = page.after
        const rows = yield* sql`SELECT ${slotCols} FROM time_slots t JOIN events e ON e.id = t.event_id
          WHERE t.event_id = ${eventId}
          AND (${a === undefined} OR (t.date, date_trunc('minute', t.start_time::interval), t.name COLLATE "C", t.id COLLATE "C")
            > (${a?.date ?? null}::date, ${a?.start_time ?? null}::interval, ${a?.name ?? null}::text COLLATE "C",
               ${a?.id ?? null}::text COLLATE "C"))
          ORDER BY t.date, date_trunc('minute', t.start_time::interval), t.name COLLATE "C", t.id COLLATE "C"
          LIMIT ${page.limit + 1}`.pipe(Effect.flatMap(decodeSlots))
        return toPage(rows, page.limit)
      }).pipe(Effect.catchTag("SqlError", sqlFailure)),
    findTimeSlot: (organisationId, id) => selectSlot(organisationId, id).pipe(Effect.catchTag("SqlError", sqlFailure)),
    createTimeSlot: (actor, eventId, input, at) =>
      sql.withTransaction(Effect.gen(function*() {
        if (!(yield* eventExists(actor.organisation_id, eventId, true))) return yield* new EventNotFound()
        const inserted = yield* sql`INSERT INTO time_slots (id, event_id, name, date, start_time, end_time, capacity)
          VALUES (gen_random_uuid()::text, ${eventId}, ${input.name}, ${input.date}::date, ${input.start_time}::time,
                  ${input.end_time}::time, ${input.capacity}) RETURNING id`
        const id = String(inserted[0]?.["id"])
        yield* audit(actor, at, { action: "time_slot.created", resource_type: "time_slot", resource_id: id })
        return Option.getOrThrow(yield* selectSlot(actor.organisation_id, id))
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    updateTimeSlot: (actor, id, patch, at) =>
      sql.withTransaction(Effect.gen(function*() {
        const found = yield* selectSlot(actor.organisation_id, id, true)
        if (Option.isNone(found)) return yield* new TimeSlotNotFound()
        const next = { ...found.value, ...patch }
        yield* sql`UPDATE time_slots SET name = ${next.name}, date = ${next.date}::date,
          start_time = ${next.start_time}::time, end_time = ${next.end_time}::time, capacity = ${next.capacity}
          WHERE id = ${id}`
        yield* audit(actor, at, { action: "time_slot.updated", resource_type: "time_slot", resource_id: id })
        return Option.getOrThrow(yield* selectSlot(actor.organisation_id, id))
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    // A slot held by a submitted submission (§15) answers IN_USE: the places' foreign key refuses the delete.
    deleteTimeSlot: (actor, id, at) =>
      sql.withTransaction(Effect.gen(function*() {
        if (Option.isNone(yield* selectSlot(actor.organisation_id, id, true))) return yield* new TimeSlotNotFound()
        yield* sql`DELETE FROM time_slots WHERE id = ${id}`
        yield* audit(actor, at, { action: "time_slot.deleted", resource_type: "time_slot", resource_id: id })
      })).pipe(Effect.catchTag("SqlError", deleteFailure)),

    listEventSections: (organisationId, eventId, page) =>
      Effect.gen(function*() {
        if (!(yield* eventExists(organisationId, eventId, false))) return yield* new EventNotFound()
        const a = page.after
        const rows = yield* sql`SELECT ${sectionCols} FROM event_sections s
          WHERE s.event_id = ${eventId}
          AND (${a === undefined} OR (s.position, s.name COLLATE "C", s.id COLLATE "C")
            > (${a?.position ?? null}::float8, ${a?.name ?? null}::text COLLATE "C", ${a?.id ?? null}::text COLLATE "C"))
          ORDER BY s.position, s.name COLLATE "C", s.id COLLATE "C" LIMIT ${page.limit + 1}`.pipe(
          Effect.flatMap(decodeSections)
        )
        return toPage(rows, page.limit)
      }).pipe(Effect.catchTag("SqlError", sqlFailure)),
    findEventSection: (organisationId, id) =>
      selectSection(organisationId, id).pipe(Effect.catchTag("SqlError", sqlFailure)),
    createEventSection: (actor, eventId, input, at) =>
      sql.withTransaction(Effect.gen(function*() {
        if (!(yield* eventExists(actor.organisation_id, eventId, true))) return yield* new EventNotFound()
        const rows = yield* sql`INSERT INTO event_sections AS s (id, event_id, name, type, show_in_registration, position)
          VALUES (gen_random_uuid()::text, ${eventId}, ${input.name}, ${input.type}, ${input.show_in_registration},
                  ${input.position}) RETURNING ${sectionCols}`.pipe(Effect.flatMap(decodeSections))
        const section = rows[0]
        if (section === undefined) return yield* Effect.die("the insert returned no row")
        yield* audit(actor, at, { action: "event_section.created", resource_type: "event_section", resource_id: section.id })
        return section
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    updateEventSection: (actor, id, patch, at) =>
      sql.withTransaction(Effect.gen(function*() {
        const found = yield* selectSection(actor.organisation_id, id, true)
        if (Option.isNone(found)) return yield* new EventSectionNotFound()
        const next = { ...found.value, ...patch }
        const rows = yield* sql`UPDATE event_sections AS s SET name = ${next.name}, type = ${next.type},
          show_in_registration = ${next.show_in_registration}, position = ${next.position}
          WHERE s.id = ${id} RETURNING ${sectionCols}`.pipe(Effect.flatMap(decodeSections))
        yield* audit(actor, at, { action: "event_section.updated", resource_type: "event_section", resource_id: id })
        return rows[0] ?? next
      })).pipe(Effect.catchTag("SqlError", sqlFailure)),
    deleteEventSection: (actor, id, at) =>
      sql.withTransaction(Effect.gen(function*() {
        if (Option.isNone(yield* selectSection(actor.organisation_id, id, true))) return yield* new EventSectionNotFound()
        yield* sql`DELETE FROM event_sections WHERE id = ${id}`
        yield* audit(actor, at, { action: "event_section.deleted", resource_type: "event_section", resource_id: id })
      })).pipe(
        Effect.catchTag("SqlError", (error) => Effect.catchTag(deleteFailure(error), "InUse", () => Effect.die(error)))
      )
  }
  return parts
})
