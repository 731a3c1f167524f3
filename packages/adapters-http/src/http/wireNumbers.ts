/**
 * Numbers on the wire: finite (a JSON number, never the strings "Infinity" or "NaN" that `Schema.Number` admits),
 * with the ranges and whole-number rules the server keeps, as the document states them.
 *
 * A range or whole-number rule that the domain's own checks enforce (a body's `capacity`, `position`) is stated in
 * the document only: the server reads bodies member by member and answers a 422 naming each bad member, and an
 * answer never fails to encode a row stored under an older rule. Counters, which nothing can make negative, are
 * checked as they are encoded.
 */
import { Schema } from "effect"

/** A JSON Schema fragment stated in the document and checked nowhere on the wire (see above). */
const documented = (jsonSchema: Record<string, unknown>) => Schema.makeFilter<number>(() => true, { toJsonSchema: () => jsonSchema })

/** The largest position, either way: ±10^9. */
export const maxPosition = 1_000_000_000
/** The largest capacity of a time slot. */
export const maxCapacity = 1_000_000

/** An event section's or an advance section's position: a whole number, −10^9 to 10^9. */
export const WholePosition = Schema.Finite.check(documented({ type: "integer", minimum: -maxPosition, maximum: maxPosition }))

/** A form section's or a field's position: a number (fractions allowed), −10^9 to 10^9. */
export const FormPosition = Schema.Finite.check(documented({ minimum: -maxPosition, maximum: maxPosition }))

/** A time slot's places: a whole number, 1 to 1,000,000 (null, where allowed, is unlimited). */
export const Capacity = Schema.Finite.check(documented({ type: "integer", minimum: 1, maximum: maxCapacity }))

/** Places left on a slot: a whole number, 0 to its capacity. */
export const Remaining = Schema.Finite.check(documented({ type: "integer", minimum: 0, maximum: maxCapacity }))

/** A slot's length in hours (two decimals): more than 0, at most 24 (a slot ending when it starts lasts a day). */
export const DurationHours = Schema.Finite.check(documented({ minimum: 0, maximum: 24 }))

/** An HTTP status a receiver answered: a whole number. */
export const StatusCode = Schema.Finite.check(documented({ type: "integer" }))

/** A duration in milliseconds as the clock measured it: 0 or more. */
export const Milliseconds = Schema.Finite.check(documented({ minimum: 0 }))

/** How many of something: a whole number, never negative. */
export const Count = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

/** A field's `min` or `max`: a finite number, or a string its type compares. */
export const Bound = Schema.Union([Schema.Finite, Schema.String])

/** A reminder's hours before its slot: a whole number 1–720. */
export const HoursBefore = Schema.Finite.check(documented({ type: "integer", minimum: 1, maximum: 720 }))

/** A volunteer form's `cancel_until_hours`: a whole number 0–720. */
export const CancelUntilHours = Schema.Finite.check(documented({ type: "integer", minimum: 0, maximum: 720 }))
