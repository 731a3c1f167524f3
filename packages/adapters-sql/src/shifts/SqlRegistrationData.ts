/** The `RegistrationData` port on PostgreSQL: an event with its children, their slots and sections. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { RegistrationData } from "@forms/domain"
import { decodeRows } from "../sql/decodeRows.js"
import { sqlFailure } from "../sql/SqlFailure.js"
import { ChosenSlotRow, EventSectionRow, EventTreeRow, SlotRow } from "./registrationRows.js"

const decodeEvents = decodeRows(EventTreeRow)
const decodeSlots = decodeRows(SlotRow)
const decodeChosenSlots = decodeRows(ChosenSlotRow)
const decodeSections = decodeRows(EventSectionRow)

export const makeSqlRegistrationData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const eventTree = Effect.fn("SqlRegistrationData.eventTree")(
    (eventId: string) =>
      sql`SELECT id, name, parent_event_id FROM events WHERE id = ${eventId} OR parent_event_id = ${eventId}
          ORDER BY (id = ${eventId}) DESC, id COLLATE "C"`,
    Effect.flatMap(decodeEvents),
    Effect.catchTag("SqlError", sqlFailure)
  )

  // Holders are counted in the same query (CONTRACT §15: `remaining`), by the places' primary key.
  const timeSlots = Effect.fn("SqlRegistrationData.timeSlots")(
    (eventIds: ReadonlyArray<string>) =>
      sql`SELECT t.id, t.event_id, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
          to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, t.capacity,
          (SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id) AS holders
        FROM time_slots t WHERE t.event_id = ANY(${[...eventIds]}::text[])
        ORDER BY t.date, t.start_time, t.name COLLATE "C", t.id COLLATE "C"`,
    Effect.flatMap(decodeSlots),
    Effect.catchTag("SqlError", sqlFailure)
  )

  const chosenSlots = Effect.fn("SqlRegistrationData.chosenSlots")(
    (ids: ReadonlyArray<string>) =>
      sql`SELECT t.id, t.event_id, e.parent_event_id, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
          to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, t.capacity,
          (SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id) AS holders
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

  return RegistrationData.of({ eventTree, timeSlots, chosenSlots, sections })
})

export const SqlRegistrationData = {
  layer: Layer.effect(RegistrationData, makeSqlRegistrationData)
} as const
