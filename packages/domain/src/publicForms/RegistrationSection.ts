/** A registration section as a public form lists it (CONTRACT §2, §3). */
import { Schema } from "effect"

export const RegistrationSection = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  type: Schema.String,
  position: Schema.Number
})
export type RegistrationSection = typeof RegistrationSection.Type
