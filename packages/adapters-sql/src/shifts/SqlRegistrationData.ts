/** The `RegistrationData` port on PostgreSQL: an event with its children, their slots and sections. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { RegistrationData, SubmissionPlace } from "@forms/domain"
import { isUuid } from "../sql/sqlValues.js"
import { decodeRows } from "../sql/decodeRows.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { ChosenSlotRow, EventSectionRow, EventTreeRow, slotInstantColumns, slotPlaceColumns, SlotRow } from "./registrationRows.js"

const decodeEvents = decodeRows(EventTreeRow)
const decodeSlots = decodeRows(SlotRow)
const decodeChosenSlots = decodeRows(ChosenSlotRow)
const decodeSections = decodeRows(EventSectionRow)
const decodePlaces = decodeRows(SubmissionPlace)

export const makeSqlRegistrationData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const instants = sql.literal(slotInstantColumns)
  const places = sql.literal(slotPlaceColumns)

  const eventTree = Effect.fn("SqlRegistrationData.eventTree")(
    (eventId: string) =>
      sql`SELECT id, name, parent_event_id, timezone FROM events WHERE id = ${eventId} OR parent_event_id = ${eventId}
          ORDER BY (id = ${eventId}) DESC, id COLLATE "C"`,
    Effect.flatMap(decodeEvents),
    Effect.catchTag("SqlError", sqlFailure)
  )

  // Holders are counted in the same query (CONTRACT §15: `remaining`), by the places' primary key.
  const timeSlots = Effect.fn("SqlRegistrationData.timeSlots")(
    (eventIds: ReadonlyArray<string>) =>
      sql`SELECT t.id, t.event_id, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
          to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, ${instants}, t.capacity,
          ${places}
        FROM time_slots t WHERE t.event_id = ANY(${[...eventIds]}::text[])
        ORDER BY t.date, t.start_time, t.name COLLATE "C", t.id COLLATE "C"`,
    Effect.flatMap(decodeSlots),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const chosenSlots = Effect.fn("SqlRegistrationData.chosenSlots")(
    (ids: ReadonlyArray<string>) =>
      sql`SELECT t.id, t.event_id, e.parent_event_id, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
          to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, ${instants}, t.capacity,
          ${places}
        FROM time_slots t JOIN events e ON e.id = t.event_id WHERE t.id = ANY(${[...ids]}::text[])`,
    Effect.flatMap(decodeChosenSlots),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const sections = Effect.fn("SqlRegistrationData.sections")(
    (eventIds: ReadonlyArray<string>) =>
      sql`SELECT id, event_id, name, type, show_in_registration, position
        FROM event_sections WHERE event_id = ANY(${[...eventIds]}::text[])
        ORDER BY position, id COLLATE "C"`,
    Effect.flatMap(decodeSections),
    Effect.catchTag("SqlError", sqlFailure)
  )

  // A waiting place's rank counts the waiting places of its slot that joined up to it (the waitlist's index).
  const placesOf = Effect.fn("SqlRegistrationData.placesOf")(
    (submissionId: string) =>
      isUuid(submissionId)
        ? sql`SELECT p.slot_id,
              CASE WHEN p.status = 'waitlisted' AND t.starts_at <= now() THEN 'expired' ELSE p.status END AS status,
              CASE WHEN p.status = 'waitlisted' AND t.starts_at > now() THEN (SELECT count(*)::int FROM slot_places w
                WHERE w.slot_id = p.slot_id AND w.status = 'waitlisted' AND w.joined <= p.joined) END AS position
            FROM slot_places p JOIN time_slots t ON t.id = p.slot_id
            WHERE p.submission_id = ${submissionId}::uuid ORDER BY p.slot_id COLLATE "C"`.pipe(Effect.flatMap(decodePlaces))
        : Effect.succeed([]),
    Effect.catchTag("SqlError", sqlFailure)
  )

  return RegistrationData.of({ eventTree, timeSlots, chosenSlots, sections, placesOf })
})

export const SqlRegistrationData = {
  layer: Layer.effect(RegistrationData, makeSqlRegistrationData)
} as const
