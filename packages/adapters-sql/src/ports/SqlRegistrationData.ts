/** The `RegistrationData` port on PostgreSQL: an event with its children, their slots and sections. */
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { SectionRow } from "./organiserRows.js"
import { RegistrationData } from "@forms/domain"
import { sqlFailure } from "../SqlFailure.js"

// Built once: each captures its definition stack, which a per-call `withSpan` would capture on every call.
const spanEventTree = Effect.withSpan("SqlRegistrationData.eventTree")
const spanTimeSlots = Effect.withSpan("SqlRegistrationData.timeSlots")
const spanSections = Effect.withSpan("SqlRegistrationData.sections")

const EventRow = Schema.Struct({ id: Schema.String, name: Schema.String, parent_event_id: Schema.NullOr(Schema.String) })
const SlotRow = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String,
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String
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

  const timeSlots = (eventIds: ReadonlyArray<string>) =>
    sql`SELECT id, event_id, name, to_char(date, 'YYYY-MM-DD') AS date,
          to_char(start_time, 'HH24:MI') AS start_time, to_char(end_time, 'HH24:MI') AS end_time
        FROM time_slots WHERE event_id = ANY(${[...eventIds]}::text[])
        ORDER BY date, start_time, name COLLATE "C", id COLLATE "C"`.pipe(
      Effect.flatMap(decode(SlotRow)),
      Effect.catchTag("SqlError", sqlFailure),
      spanTimeSlots
    )

  const sections = (eventIds: ReadonlyArray<string>) =>
    sql`SELECT id, event_id, name, type, show_in_registration, position
        FROM event_sections WHERE event_id = ANY(${[...eventIds]}::text[])
        ORDER BY position, id COLLATE "C"`.pipe(
      Effect.flatMap(decode(SectionRow)),
      Effect.catchTag("SqlError", sqlFailure),
      spanSections
    )

  return RegistrationData.of({ eventTree, timeSlots, sections })
})

export const SqlRegistrationData = {
  layer: Layer.effect(RegistrationData, makeSqlRegistrationData)
} as const
