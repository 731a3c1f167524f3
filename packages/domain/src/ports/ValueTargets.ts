/** Port: the JSON objects the value-applying pipeline writes into (artist `profile`, engagement `advance`). */
import { Context, type Effect, type Option } from "effect"
import type { Unavailable } from "../Errors.js"
import type { Values } from "../Values.js"

export interface ApplyValues {
  readonly engagement_id: string
  /** Merged into the engagement's master artist's `profile` (other keys kept). */
  readonly artist: Values
  /** Merged into the engagement's `advance` (other keys kept). */
  readonly engagement: Values
}

export interface AppliedObjects {
  readonly profile: Values
  readonly advance: Values
}

export class ValueTargets extends Context.Service<ValueTargets, {
  /** One atomic step: both merges or neither. False when the engagement does not exist (nothing written). */
  readonly apply: (command: ApplyValues) => Effect.Effect<boolean, Unavailable>
  /** The master artist's `profile` and the engagement's `advance` (empty objects when never written). */
  readonly read: (engagementId: string) => Effect.Effect<Option.Option<AppliedObjects>, Unavailable>
}>()("@forms/domain/ValueTargets") {}
