/** Port: the JSON objects the value-applying pipeline writes into (artist `profile`, engagement `advance`). */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../shared/errors.js"
import type { Values } from "../forms/Values.js"

/** The advance draft, at the version whose values an apply was computed from. */
export interface ApplySource {
  readonly submission_id: string
  readonly version: number
}

export interface ApplyValues {
  readonly engagement_id: string
  /** Merged into the engagement's master artist's `profile` (other keys kept). */
  readonly artist: Values
  /** Merged into the engagement's `advance` (other keys kept). */
  readonly engagement: Values
  /**
   * When given, the merge is made only unless the engagement last took values from a newer version of the same
   * draft (an older event's apply that lands late changes nothing), and this source is recorded.
   */
  readonly source?: ApplySource | undefined
}

export interface AppliedObjects {
  readonly profile: Values
  readonly advance: Values
}

export class ValueTargets extends Context.Service<ValueTargets, {
  /**
   * One atomic step: both merges or neither (neither when `source` is older than the one last applied). False
   * when the engagement does not exist (nothing written).
   */
  readonly apply: (command: ApplyValues) => Effect.Effect<boolean, Unavailable>
  /** The master artist's `profile` and the engagement's `advance` (empty objects when never written). */
  readonly read: (engagementId: string) => Effect.Effect<Option.Option<AppliedObjects>, Unavailable>
}>()("@forms/domain/ValueTargets") {}
