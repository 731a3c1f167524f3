/**
 * The time-slot methods of the `OrganiserCatalog` port on PostgreSQL: an event's slots with their holders, scoped
 * through their event's organisation, each write one transaction with its audit entry.
 */
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { AdminTimeSlot, type Actor, EventNotFound, type OrganiserCatalog, SlotTimesInvalid, TimeSlotNotFound } from "@forms/domain"
import { type SlotClock, slotInstants } from "@forms/domain/internal"
import { appendAudit } from "../../sql/appendAudit.js"
import { decodeRows } from "../../sql/decodeRows.js"
import { toPage } from "../../sql/paging.js"
import { deleteFailure, sqlFailure } from "../../sql/SqlFailure.js"
import { slotInstantColumns, slotPlaceColumns } from "../../shifts/registrationRows.js"
import { lockedEventZone } from "../../shifts/slotInstantsSql.js"
import { eventExists } from "./eventRows.js"
import { promoteWithMessages } from "../../reminders/promoteWithMessages.js"

/** Over `time_slots t JOIN events e`: a slot, its event's name and its holders (CONTRACT §15). */
const slotColumns = `t.id, t.event_id, e.name AS event_name, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
  to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, ${slotInstantColumns}, t.capacity,
  ${slotPlaceColumns}`
const decodeSlots = decodeRows(AdminTimeSlot)

/** Epoch ms as timestamptz text, or null. */
const instantOrNull = (ms: number | null | undefined): string | null => (ms == null ? null : new Date(ms).toISOString())

type TimeSlotMethods = Pick<
  OrganiserCatalog["Service"],
  "listTimeSlots" | "findTimeSlot" | "createTimeSlot" | "updateTimeSlot" | "deleteTimeSlot"
>

export const makeTimeSlotMethods = (sql: SqlClient.SqlClient): TimeSlotMethods => {
  const slotCols = sql.literal(slotColumns)

  /**
   * With `lock: "FOR UPDATE"` (inside an update or a delete), the slot's row is locked until the transaction ends:
   * a delete racing an update then waits for it, or the update finds no slot (404), never a slot gone mid-write.
   */
  const selectSlot = (organisationId: string, id: string, options: { readonly lock?: "FOR UPDATE" } = {}) =>
    sql`SELECT ${slotCols} FROM time_slots t JOIN events e ON e.id = t.event_id
      WHERE t.id = ${id} AND e.organisation_id = ${organisationId} ${sql.literal(options.lock === undefined ? "" : "FOR UPDATE OF t")}`.pipe(
      Effect.flatMap(decodeSlots),
      Effect.map((rows): Option.Option<AdminTimeSlot> => Option.fromUndefinedOr(rows[0]))
    )

  const audit = (actor: Actor, at: number, action: string, id: string) =>
    appendAudit(sql, actor, at, { action, resource_type: "time_slot", resource_id: id })

  /** The slot's instants in `zone`, as timestamptz text; SlotTimesInvalid when none. */
  const instantsIn = Effect.fnUntraced(function*(zone: string, clock: SlotClock) {
    const instants = slotInstants(clock, zone)
    if (instants === undefined) return yield* new SlotTimesInvalid({ field: "end_time" })
    return { starts_at: new Date(instants.starts_at).toISOString(), ends_at: new Date(instants.ends_at).toISOString() }
  })

  return {
    listTimeSlots: Effect.fn("SqlOrganiserCatalog.listTimeSlots")(
      function*(organisationId, eventId, page) {
        if (!(yield* eventExists(sql, organisationId, eventId))) return yield* new EventNotFound()
        const a = page.after
        const rows = yield* sql`SELECT ${slotCols} FROM time_slots t JOIN events e ON e.id = t.event_id
          WHERE t.event_id = ${eventId}
          AND (${a === undefined} OR (t.date, date_trunc('minute', t.start_time::interval), t.name COLLATE "C", t.id COLLATE "C")
            > (${a?.date ?? null}::date, ${a?.start_time ?? null}::interval, ${a?.name ?? null}::text COLLATE "C",
               ${a?.id ?? null}::text COLLATE "C"))
          ORDER BY t.date, date_trunc('minute', t.start_time::interval), t.name COLLATE "C", t.id COLLATE "C"
          LIMIT ${page.limit + 1}`.pipe(Effect.flatMap(decodeSlots))
        return toPage(rows, page.limit)
      },
      Effect.catchTag("SqlError", sqlFailure)
    ),
    findTimeSlot: Effect.fn("SqlOrganiserCatalog.findTimeSlot")(
      (organisationId, id) => selectSlot(organisationId, id),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    createTimeSlot: Effect.fn("SqlOrganiserCatalog.createTimeSlot")(
      (actor, eventId, input, at) =>
        sql.withTransaction(Effect.gen(function*() {
          if (!(yield* eventExists(sql, actor.organisation_id, eventId, { lock: "FOR SHARE" }))) return yield* new EventNotFound()
          const instants = yield* instantsIn(yield* lockedEventZone(sql, eventId), input)
          const inserted = yield* sql`INSERT INTO time_slots (id, event_id, name, date, start_time, end_time, capacity, starts_at, ends_at,
              signup_opens_at, signup_closes_at, waitlist)
            VALUES (gen_random_uuid()::text, ${eventId}, ${input.name}, ${input.date}::date, ${input.start_time}::time,
                    ${input.end_time}::time, ${input.capacity}, ${instants.starts_at}::timestamptz, ${instants.ends_at}::timestamptz,
                    ${instantOrNull(input.signup_opens_at)}::timestamptz, ${instantOrNull(input.signup_closes_at)}::timestamptz,
                    ${input.waitlist ?? false})
            RETURNING id`
          const id = String(inserted[0]?.["id"])
          yield* audit(actor, at, "time_slot.created", id)
          return Option.getOrThrow(yield* selectSlot(actor.organisation_id, id))
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    updateTimeSlot: Effect.fn("SqlOrganiserCatalog.updateTimeSlot")(
      (actor, id, patch, at) =>
        sql.withTransaction(Effect.gen(function*() {
          // The event (its zone) is locked before the slot, in the order a zone change takes them: never crosswise.
          const peek = yield* selectSlot(actor.organisation_id, id)
          if (Option.isNone(peek)) return yield* new TimeSlotNotFound()
          const zone = yield* lockedEventZone(sql, peek.value.event_id)
          const found = yield* selectSlot(actor.organisation_id, id, { lock: "FOR UPDATE" })
          if (Option.isNone(found)) return yield* new TimeSlotNotFound()
          const next = { ...found.value, ...patch }
          const instants = yield* instantsIn(zone, next)
          yield* sql`UPDATE time_slots SET name = ${next.name}, date = ${next.date}::date,
            start_time = ${next.start_time}::time, end_time = ${next.end_time}::time, capacity = ${next.capacity},
            starts_at = ${instants.starts_at}::timestamptz, ends_at = ${instants.ends_at}::timestamptz,
            signup_opens_at = ${instantOrNull(next.signup_opens_at)}::timestamptz,
            signup_closes_at = ${instantOrNull(next.signup_closes_at)}::timestamptz, waitlist = ${next.waitlist}
            WHERE id = ${id}`
          // A capacity raised makes room: the earliest waiting places take it, in this transaction (CONTRACT §22).
          yield* promoteWithMessages(sql, [id], new Date(at))
          yield* audit(actor, at, "time_slot.updated", id)
          return Option.getOrThrow(yield* selectSlot(actor.organisation_id, id))
        })),
      Effect.catchTag("SqlError", sqlFailure)
    ),
    // A slot held by a submitted submission (§15) answers IN_USE: the places' foreign key refuses the delete.
    deleteTimeSlot: Effect.fn("SqlOrganiserCatalog.deleteTimeSlot")(
      (actor, id, at) =>
        sql.withTransaction(Effect.gen(function*() {
          if (Option.isNone(yield* selectSlot(actor.organisation_id, id, { lock: "FOR UPDATE" }))) return yield* new TimeSlotNotFound()
          yield* sql`DELETE FROM time_slots WHERE id = ${id}`
          yield* audit(actor, at, "time_slot.deleted", id)
        })),
      Effect.catchTag("SqlError", deleteFailure)
    )
  }
}
