/** The use cases of a volunteer's own shifts (CONTRACT §22): the manage answer, giving a place up, a new manage link. */
import { Context, type Effect, Schema } from "effect"
import type { RateLimited } from "../limits/errors.js"
import type { Limited, Refused } from "../limits/Limited.js"
import type { Client } from "../limits/LimitPolicy.js"
import type { SubmissionNotFound } from "../publicForms/errors.js"
import type { Actor } from "../shared/Actor.js"
import type { Unavailable } from "../shared/errors.js"
import type { CancelClosed, ManageNotFound, PlaceNotFound } from "./errors.js"
import { SubmissionPlace } from "./RegistrationData.js"
import { TimeSlot } from "./TimeSlot.js"

/** A place as the manage answer shows it: the slot as the public list shows it, the status and the rank. */
export const ManagedPlace = Schema.Struct({
  slot: TimeSlot,
  status: SubmissionPlace.fields.status,
  position: SubmissionPlace.fields.position
})
export type ManagedPlace = typeof ManagedPlace.Type

/** `GET /public/manage/{token}`: the form's name and the places, in the order of the slot lists. */
export const ManageView = Schema.Struct({
  form: Schema.Struct({ name: Schema.String }),
  places: Schema.Array(ManagedPlace)
})
export type ManageView = typeof ManageView.Type

export class VolunteerShifts extends Context.Service<VolunteerShifts, {
  /** token (404) → write limit (429) → the submission's places. */
  readonly manage: (
    token: string,
    client: Client
  ) => Effect.Effect<Limited<ManageView>, ManageNotFound | Refused<RateLimited> | Unavailable>
  /** token (404) → write limit (429) → place (404) → time (409) → given up, the waitlist promoted. */
  readonly cancelPlace: (
    token: string,
    slotId: string,
    client: Client
  ) => Effect.Effect<
    Limited<void>,
    ManageNotFound | Refused<RateLimited | ManageNotFound | PlaceNotFound | CancelClosed> | Unavailable
  >
  /** A new manage token for a submission of the actor's organisation (404 otherwise). */
  readonly issueManageLink: (actor: Actor, submissionId: string) => Effect.Effect<string, SubmissionNotFound | Unavailable>
}>()("@forms/domain/VolunteerShifts") {}
