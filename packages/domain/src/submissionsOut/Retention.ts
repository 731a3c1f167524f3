/** Port: the retention sweep of CONTRACT §12, one process at a time. */
import { Context, type Effect, Schema } from "effect"
import type { Unavailable } from "../shared/errors.js"
import type { SweepResult } from "./SubmissionsOutModel.js"

export const SweepCutoffs = Schema.Struct({
  /** Epoch ms: drafts of public forms last updated before it are deleted. */
  draftsUpdatedBefore: Schema.Number,
  /** Epoch ms: payloads of events delivered before it are emptied. */
  deliveredBefore: Schema.Number
})
export type SweepCutoffs = typeof SweepCutoffs.Type

export class Retention extends Context.Service<Retention, {
  /** One atomic step, unless another process is sweeping (then nothing is done and `ran` is false). */
  readonly sweep: (cutoffs: SweepCutoffs) => Effect.Effect<SweepResult, Unavailable>
}>()("@forms/domain/Retention") {}
