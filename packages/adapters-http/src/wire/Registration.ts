/** Time slots and registration sections on the wire (CONTRACT §2), and the system routes' bodies. */
import { Schema } from "effect"

export const TimeSlotWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  date: Schema.String,
  start_time: Schema.String,
  end_time: Schema.String,
  duration_hours: Schema.Number,
  event_id: Schema.String,
  event_name: Schema.String,
  capacity: Schema.NullOr(Schema.Int).annotate({
    description: "Places on the slot: a positive integer, or null when unlimited."
  }),
  remaining: Schema.NullOr(Schema.Int).annotate({
    description: "Places left: capacity minus the submitted submissions holding the slot (from every form), never below 0; null when unlimited."
  })
}).annotate({ identifier: "TimeSlot" })

export const TimeSlotsEnvelope = Schema.Struct({ data: Schema.Array(TimeSlotWire) }).annotate({
  identifier: "TimeSlotsEnvelope"
})

export const RegistrationSectionWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  position: Schema.Number
}).annotate({ identifier: "RegistrationSection" })

export const SectionsEnvelope = Schema.Struct({ data: Schema.Array(RegistrationSectionWire) }).annotate({
  identifier: "SectionsEnvelope"
})

export const HealthEnvelope = Schema.Struct({
  data: Schema.Struct({ status: Schema.Literal("ok") })
}).annotate({ identifier: "Health" })
