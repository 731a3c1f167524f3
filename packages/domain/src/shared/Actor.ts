/** Who performs an organiser request: every organiser feature scopes its reads and writes by it. */
import { Schema } from "effect"

/** The key's organisation (every query is scoped by it) and the key. */
export const Actor = Schema.Struct({
  organisation_id: Schema.String,
  /** Null for writes of the CLI (no key involved). */
  api_key_id: Schema.NullOr(Schema.String)
})
export type Actor = typeof Actor.Type
