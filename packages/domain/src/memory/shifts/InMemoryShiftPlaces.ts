/** ShiftPlaces in memory (CONTRACT §22): manage tokens by value, places given up with the waitlist promoted in one step. */
import { Effect, Layer, Option, Result } from "effect"
import { SubmissionNotFound } from "../../publicForms/errors.js"
import { CancelClosed, ManageNotFound, PlaceNotFound } from "../../shifts/errors.js"
import { ShiftPlaces } from "../../shifts/ShiftPlaces.js"
import { appendAudit, InMemoryStore, issueManageToken, promoteSeeded } from "../InMemoryStore.js"
import { seedSlotInstants } from "./seedSlotInstants.js"

const inMemoryShiftPlacesLayer = Layer.effect(
  ShiftPlaces,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const { data } = store
    const submittedOf = (token: string) => {
      const id = data.manageTokens.get(token)
      const submission = id === undefined ? undefined : data.submissions.get(id)
      return submission?.status === "submitted" ? submission : undefined
    }
    return ShiftPlaces.of({
      findManaged: (token) =>
        store.atomically(() => {
          const submission = submittedOf(token)
          return Result.succeed(
            submission === undefined
              ? Option.none()
              : Option.some({ submission_id: submission.id, schema_id: submission.schema_id })
          )
        }),
      cancel: (command) =>
        store.atomically((): Result.Result<void, ManageNotFound | PlaceNotFound | CancelClosed> => {
          const submission = submittedOf(command.token)
          if (submission === undefined) return Result.fail(new ManageNotFound({}))
          const place = data.places.get(command.slot_id)?.get(submission.id)
          const slot = data.seed.time_slots.find((t) => t.id === command.slot_id)
          if (place === undefined || slot === undefined) return Result.fail(new PlaceNotFound({}))
          const starts_at = seedSlotInstants(data.seed, slot).starts_at
          if (!command.decide({ status: place.status, starts_at })) return Result.fail(new CancelClosed({}))
          data.places.get(command.slot_id)?.delete(submission.id)
          data.submissions.set(submission.id, {
            ...submission,
            values: command.values(submission.values),
            updated_at: command.at,
            version: submission.version + 1
          })
          data.outbox.push({
            id: store.nextId("event"),
            type: command.event.type,
            payload: command.event.payload,
            attempts: 0,
            last_error: null,
            available_at: command.at,
            claimed_until: null,
            delivered_at: null,
            dead_at: null,
            created_at: command.at
          })
          promoteSeeded(data, [command.slot_id], command.at, () => store.nextId("event"))
          return Result.succeed(undefined)
        }),
      issueManageLink: (actor, submissionId, at) =>
        store.atomically((): Result.Result<string, SubmissionNotFound> => {
          const submission = data.submissions.get(submissionId)
          const schema = submission === undefined ? undefined : data.schemas.get(submission.schema_id)
          if (submission?.status !== "submitted" || schema?.organisation_id !== actor.organisation_id) {
            return Result.fail(new SubmissionNotFound({}))
          }
          const token = issueManageToken(data, submissionId)
          appendAudit(data, actor, at, {
            action: "submission.manage_link_created",
            resource_type: "submission",
            resource_id: submissionId
          })
          return Result.succeed(token)
        })
    })
  })
)

/** The layer of `InMemoryShiftPlaces`: `InMemoryShiftPlaces.layer` (over `InMemoryStore`). */
export const InMemoryShiftPlaces = { layer: inMemoryShiftPlacesLayer } as const
