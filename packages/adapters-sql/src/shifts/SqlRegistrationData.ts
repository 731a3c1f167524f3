/** The `RegistrationData` port on PostgreSQL: an event with its children, their slots and sections. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { SectionRow } from "../organiser/catalog/catalogRows.js"
import { RegistrationData } from "@forms/domain"
import { sqlFailure } from "../sql/SqlFailure.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanEventTree = Effect.withSpan("SqlRegistrationData.eventTree")
const spanTimeSlots = Effect.withSpan("SqlRegistrationData.timeSlots")
const spanChosenSlots = Effect.withSpan("SqlRegistrationData.chosenSlots")
const spanSections = Effect.withSpan("SqlRegistrationData.sections")

const EventRow = Schema.Struct({ id: Schema.String, name: Schema.String, parent_event_id: Schema.NullOr(Schema.String) })
const SlotRow = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  capacity: Schema.NullOr(Schema.Number),
  holders: Schema.Number
})
const ChosenSlotRow = Schema.Struct({
  ...SlotRow.fields,
  parent_event_id: Schema.NullOr(Schema.String)
})

const decode = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S) => {
  const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (input: ReadonlyArray<unknown>) => Effect.orDie(rows(input))
}

export const makeSqlRegistrationData = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const eventTree = (eventId: string) =>
    sql`SELECT id, name, parent_event_id FROM events WHERE id = ${eventId} OR parent_event_id = ${eventId}
        ORDER BY (id = ${eventId}) DESC, id COLLATE "C"`.pipe(
      Effect.flatMap(decode(EventRow)),
      Effect.catchTag("SqlError", sqlFailure),
      spanEventTree
    )

  // Holders are counted in the same query (CONTRACT §15: `remaining`), by the places' primary key.
  const timeSlots = (eventIds: ReadonlyArray<string>) =>
    sql`SELECT t.id, t.event_id, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
          to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, t.capacity,
          (SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id) AS holders
        FROM time_slots t WHERE t.event_id = ANY(${[...eventIds]}::text[])
        ORDER BY t.date, t.start_time, t.name COLLATE "C", t.id COLLATE "C"`.pipe(
      Effect.flatMap(decode(SlotRow)),
      Effect.catchTag("SqlError", sqlFailure),
      spanTimeSlots
    )

  const chosenSlots = (ids: ReadonlyArray<string>) =>
    sql`SELECT t.id, t.event_id, e.parent_event_id, t.name, to_char(t.date, 'YYYY-MM-DD') AS date,
          to_char(t.start_time, 'HH24:MI') AS start_time, to_char(t.end_time, 'HH24:MI') AS end_time, t.capacity,
          (SELECT count(*)::int FROM slot_places p WHERE p.slot_id = t.id) AS holders
        FROM time_slots t JOIN events e ON e.id = t.event_id WHERE t.id = ANY(${[...ids]}::text[])`.pipe(
      Effect.flatMap(decode(ChosenSlotRow)),
      Effect.catchTag("SqlError", sqlFailure),
      spanChosenSlots
    )

  const sections = (eventIds: ReadonlyArray<string>) =>
    sql`SELECT id, event_id, name, type, show_in_registration, position
        FROM event_sections WHERE event_id = ANY(${[...eventIds]}::text[])
        ORDER BY position, id COLLATE "C"`.pipe(
      Effect.flatMap(decode(SectionRow)),
      Effect.catchTag("SqlError", sqlFailure),
      spanSections
    )

  return RegistrationData.of({ eventTree, timeSlots, chosenSlots, sections })
})

export const SqlRegistrationData = {
  layer: Layer.effect(RegistrationData, makeSqlRegistrationData)
} as const
