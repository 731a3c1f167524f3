/** The system routes' body: `{ data: { status: "ok" } }`. */
import { Schema } from "effect"

export const HealthEnvelope = Schema.Struct({
  data: Schema.Struct({ status: Schema.Literal("ok") })
}).annotate({ identifier: "Health" })
