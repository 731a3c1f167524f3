/** Port: the JSON objects the value-applying pipeline writes into (artist `profile`, engagement `advance`). */
import { Context, type Effect, type Option, Schema } from "effect"
import { Values } from "../forms/Values.js"
import type { Unavailable } from "../shared/errors.js"

/** The advance draft, at the version whose values an apply was computed from. */
export const ApplySource = Schema.Struct({
  submission_id: Schema.String,
  version: Schema.Number
})
export type ApplySource = typeof ApplySource.Type

export const ApplyValues = Schema.Struct({
  engagement_id: Schema.String,
  /** Merged into the engagement's master artist's `profile` (other keys kept). */
  artist: Values,
  /** Merged into the engagement's `advance` (other keys kept). */
  engagement: Values,
  /**
   * When given, the merge is made only unless the engagement last took values from a newer version of the same
   * draft (an older event's apply that lands late changes nothing), and this source is recorded.
   */
  source: Schema.optional(ApplySource)
})
export type ApplyValues = typeof ApplyValues.Type

export const AppliedObjects = Schema.Struct({
  profile: Values,
  advance: Values
})
export type AppliedObjects = typeof AppliedObjects.Type

export class ValueTargets extends Context.Service<ValueTargets, {
  /**
   * One atomic step: both merges or neither (neither when `source` is older than the one last applied). False
   * when the engagement does not exist (nothing written).
   */
  readonly apply: (command: ApplyValues) => Effect.Effect<boolean, Unavailable>
  /** The master artist's `profile` and the engagement's `advance` (empty objects when never written). */
  readonly read: (engagementId: string) => Effect.Effect<Option.Option<AppliedObjects>, Unavailable>
}>()("@forms/domain/ValueTargets") {}
