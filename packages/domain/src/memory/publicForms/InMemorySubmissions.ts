/** In-memory Submissions and UniqueValues: the atomic steps of the port, each one critical section. */
import { Effect, Layer, Option, Result } from "effect"
import { RevisionChanged } from "../../forms/errors.js"
import {
  type AlreadySubmitted,
  SlotsRefused,
  SubmissionNotFound,
  UniqueTaken,
  type VersionConflict
} from "../../publicForms/errors.js"
import type { Submission } from "../../publicForms/Submission.js"
import { applySave, applySubmit, newDraft } from "../../publicForms/SubmissionLifecycle.js"
import { Submissions } from "../../publicForms/Submissions.js"
import { UniqueValues } from "../../publicForms/UniqueValues.js"
import { placeFor } from "../../shifts/placeArithmetic.js"
import { chosenSlots, claimKey, idempotencyKey, type InMemoryData, InMemoryStore, issueManageToken } from "../InMemoryStore.js"
import { placesOf } from "../shifts/inMemoryPlaces.js"
import { withPlacesTaken } from "../../shifts/placesTaken.js"

/** The submission `id` of form `schemaId`, as every in-memory port looks it up. */
export const findInSchema = (data: InMemoryData, schemaId: string, id: string): Submission | undefined => {
  const submission = data.submissions.get(id)
  return submission !== undefined && submission.schema_id === schemaId ? submission : undefined
}

const inMemorySubmissionsLayer = Layer.effect(
  Submissions,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const { data } = store
    /** The write validated against `revision` and the schema has moved on since. */
    const stale = (schemaId: string, revision: number | undefined) =>
      revision !== undefined && data.schemas.get(schemaId)?.revision !== revision
    return Submissions.of({
      createOrGet: (draft) =>
        store.atomically<{ readonly submission: Submission; readonly created: boolean }, RevisionChanged>((now) => {
          const key = idempotencyKey(draft.schema_id, draft.idempotency_key)
          const existingId = data.keys.get(key)
          const existing = existingId === undefined ? undefined : data.submissions.get(existingId)
          if (existing !== undefined) return Result.succeed({ submission: existing, created: false })
          // A form deleted since the use case read it takes no draft (the SQL foreign key's answer).
          if (!data.schemas.has(draft.schema_id) || stale(draft.schema_id, draft.revision)) return Result.fail(new RevisionChanged())
          const submission = newDraft({ ...draft, id: store.nextId("submission"), now })
          data.submissions.set(submission.id, submission)
          data.keys.set(key, submission.id)
          return Result.succeed({ submission, created: true })
        }),
      findByKey: (schemaId, key) =>
        store.atomically(() => {
          const id = data.keys.get(idempotencyKey(schemaId, key))
          return Result.succeed(Option.fromUndefinedOr(id === undefined ? undefined : findInSchema(data, schemaId, id)))
        }),
      findInSchema: (schemaId, id) =>
        store.atomically(() => Result.succeed(Option.fromUndefinedOr(findInSchema(data, schemaId, id)))),
      save: (schemaId, id, patch, revision, language) =>
        store.atomically<Submission, SubmissionNotFound | AlreadySubmitted | RevisionChanged>((now) => {
          const submission = findInSchema(data, schemaId, id)
          if (submission === undefined) return Result.fail(new SubmissionNotFound({}))
          if (submission.status === "draft" && stale(schemaId, revision)) return Result.fail(new RevisionChanged())
          const saved = applySave(submission, patch, now, language)
          if (Result.isSuccess(saved)) data.submissions.set(id, saved.success)
          return saved
        }),
      submit: (command) =>
        store.atomically<
          Submission,
          SubmissionNotFound | AlreadySubmitted | VersionConflict | UniqueTaken | SlotsRefused | RevisionChanged
        >((now) => {
          const submission = findInSchema(data, command.schema_id, command.id)
          if (submission === undefined) return Result.fail(new SubmissionNotFound({}))
          if (submission.status === "draft" && stale(command.schema_id, command.revision)) return Result.fail(new RevisionChanged())
          const submitted = applySubmit(submission, command.expected_version, command.values, command.submitted_at, command.language)
          if (Result.isFailure(submitted)) return submitted
          const taken = command.claims.filter((claim) => {
            const held = data.claims.get(claimKey(command.schema_id, claim.slug, claim.normalized))
            return held !== undefined && held.submission_id !== command.id
          })
          if (taken.length > 0) return Result.fail(new UniqueTaken({ slugs: [...new Set(taken.map((c) => c.slug))] }))
          const places = command.places
          let events = command.events
          if (places !== undefined) {
            // The chosen slots as they would be with this submission's places taken (CONTRACT §22: the place each gets).
            const held = chosenSlots(data, places.slot_ids, now).map((slot) => {
              const place = placeFor({ capacity: slot.capacity, waitlist: slot.waitlist, confirmed: slot.holders, waiting: slot.waitlisted })
              return {
                ...slot,
                place,
                holders: slot.holders + (place === "confirmed" ? 1 : 0),
                waitlisted: slot.waitlisted + (place === "waitlisted" ? 1 : 0)
              }
            })
            const refused = places.decide(held)
            if (refused !== undefined) return Result.fail(new SlotsRefused({ fields: refused }))
            events = withPlacesTaken(events, held)
            for (const slot of held) {
              if (slot.place === "full") continue
              data.sequence += 1
              placesOf(data.places, slot.id).set(command.id, {
                status: slot.place,
                joined: data.sequence,
                confirmed_at: slot.place === "confirmed" ? command.submitted_at : null
              })
            }
          }
          data.submissions.set(command.id, submitted.success)
          for (const claim of command.claims) {
            data.claims.set(claimKey(command.schema_id, claim.slug, claim.normalized), {
              schema_id: command.schema_id,
              slug: claim.slug,
              normalized: claim.normalized,
              submission_id: command.id
            })
          }
          for (const event of events) {
            data.outbox.push({
              id: store.nextId("event"),
              type: event.type,
              payload: event.payload,
              attempts: 0,
              last_error: null,
              available_at: command.submitted_at,
              claimed_until: null,
              delivered_at: null,
              dead_at: null,
              created_at: command.submitted_at
            })
          }
          const organisationId = data.schemas.get(command.schema_id)?.organisation_id ?? ""
          for (const { link, ...message } of command.messages ?? []) {
            data.messages.push({
              link,
              message: {
                ...message,
                id: store.nextId("message"),
                organisation_id: organisationId,
                submission_id: command.id,
                engagement_id: null,
                attempts: 0,
                round_start: 0,
                last_error: message.last_error ?? null,
                created_at: command.submitted_at,
                sent_at: null
              },
              due_at: command.submitted_at
            })
          }
          if (command.manage === true) {
            return Result.succeed({ ...submitted.success, manage_token: issueManageToken(data, command.id) })
          }
          return Result.succeed(submitted.success)
        })
    })
  })
)

const inMemoryUniqueValuesLayer = Layer.effect(
  UniqueValues,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    return UniqueValues.of({
      taken: (schemaId, claims) =>
        store.atomically(() => {
          const slugs = claims
            .filter((claim) => store.data.claims.has(claimKey(schemaId, claim.slug, claim.normalized)))
            .map((claim) => claim.slug)
          return Result.succeed([...new Set(slugs)])
        })
    })
  })
)

/** The layer of `InMemorySubmissions`: `InMemorySubmissions.layer`. */
export const InMemorySubmissions = { layer: inMemorySubmissionsLayer } as const

/** The layer of `InMemoryUniqueValues`: `InMemoryUniqueValues.layer`. */
export const InMemoryUniqueValues = { layer: inMemoryUniqueValuesLayer } as const
