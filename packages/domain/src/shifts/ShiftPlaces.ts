/**
 * Port: the places of a submission as its volunteer manages them (CONTRACT §22). Every method is one atomic step;
 * a step that frees a place promotes the waiting ones in the same step. A manage token is kept only as its hash
 * (the SQL adapter's SHA-256), so a new link is shown once and replaces the old one.
 */
import { Context, type Effect, type Option, Schema } from "effect"
import type { NewOutboxEvent } from "../events/Outbox.js"
import type { Values } from "../forms/Values.js"
import type { SubmissionNotFound } from "../publicForms/errors.js"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CancelClosed, ManageNotFound, PlaceNotFound } from "./errors.js"

/** The submission a manage token opens. */
export const ManagedSubmission = Schema.Struct({
  submission_id: Schema.String,
  schema_id: Schema.String
})
export type ManagedSubmission = typeof ManagedSubmission.Type

/** A place as the step that gives it up locked it. */
export interface LockedPlace {
  readonly status: "confirmed" | "waitlisted"
  /** The slot's start, epoch ms. */
  readonly starts_at: number
}

export interface CancelPlaceCommand {
  readonly token: string
  readonly slot_id: string
  /** Epoch ms: `updated_at`, the event's and the promotions' time. */
  readonly at: number
  /** The domain's decision on the locked place (shifts/cancelPlace.ts `mayCancel`): false → CancelClosed. */
  readonly decide: (place: LockedPlace) => boolean
  /** The submission's stored values without the slot (shifts/cancelPlace.ts `valuesWithoutSlot`). */
  readonly values: (stored: Values) => Values
  /** `place.cancelled`, recorded in the same step. */
  readonly event: NewOutboxEvent
}

export class ShiftPlaces extends Context.Service<ShiftPlaces, {
  /** The submission of a manage token; none for an unknown or replaced token. */
  readonly findManaged: (token: string) => Effect.Effect<Option.Option<ManagedSubmission>, Unavailable>
  /**
   * Gives the place up: the submission (by token) and the slot locked, the place checked and decided, the place
   * deleted, the slot id out of the values (`updated_at` moved), the event recorded, the waitlist promoted.
   */
  readonly cancel: (
    command: CancelPlaceCommand
  ) => Effect.Effect<void, ManageNotFound | PlaceNotFound | CancelClosed | Unavailable>
  /** A new manage token for a submitted submission of the actor's organisation (the old one stops working); audited. */
  readonly issueManageLink: (
    actor: Actor,
    submissionId: string,
    at: number
  ) => Effect.Effect<string, SubmissionNotFound | Unavailable>
}>()("@forms/domain/ShiftPlaces") {}
