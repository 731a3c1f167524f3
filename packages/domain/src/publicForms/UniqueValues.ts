/** Port: values claimed by submitted submissions, for the `unique` rule before submit. */
import { Context, type Effect } from "effect"
import type { Unavailable } from "../shared/errors.js"
import type { UniqueClaim } from "./Submissions.js"

export class UniqueValues extends Context.Service<UniqueValues, {
  /** The slugs among `claims` whose normalized value a submitted submission of the schema already holds. */
  readonly taken: (
    schemaId: string,
    claims: ReadonlyArray<UniqueClaim>
  ) => Effect.Effect<ReadonlyArray<string>, Unavailable>
}>()("@forms/domain/UniqueValues") {}
