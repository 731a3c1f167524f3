/** How the organiser's use cases answer a body member that names nothing it may refer to (CONTRACT §12). */
import { ValidationFailed } from "../../rules/errors.js"
import type { FieldError } from "../../rules/FieldErrors.js"
import type { ReferenceInvalid, SlotTimesInvalid } from "./errors.js"

/** The 422 `in` of a member whose reference is unknown, of another organisation, or not a valid target. */
export const inReference: FieldError = { rule: "in", message: "This member names nothing it may refer to." }

/** A port's `ReferenceInvalid` as the 422 the use case answers. */
export const referenceProblem = (error: ReferenceInvalid) => new ValidationFailed({ fields: { [error.field]: [inReference] } })

/** The 422 `invalid` of a write that would leave a slot ending before it starts (inside a clock change). */
export const slotTimesProblem = (error: SlotTimesInvalid) =>
  new ValidationFailed({
    fields: {
      [error.field]: [{
        rule: "invalid",
        message: "In the event's time zone this slot would not end after it starts (a daylight-saving change)."
      }]
    }
  })
