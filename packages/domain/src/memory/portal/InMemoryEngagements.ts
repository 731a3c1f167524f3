/** In-memory Engagements and ValueTargets: each method one critical section over both stores. */
import { Effect, Layer, Option, Result } from "effect"
import { OutboxSignal } from "../../events/OutboxSignal.js"
import { RevisionChanged } from "../../forms/errors.js"
import type { FormSchema } from "../../forms/FormSchema.js"
import { copyValues } from "../../forms/Values.js"
import { advanceDraftKey, ArtistAdvanceType, type PortalContext } from "../../portal/Engagement.js"
import { Engagements, type SubmitSectionResult } from "../../portal/Engagements.js"
import { SectionLocked, SectionNotFound } from "../../portal/errors.js"
import { isLockedAt } from "../../portal/SectionLock.js"
import { ValueTargets } from "../../portal/ValueTargets.js"
import { VersionConflict } from "../../publicForms/errors.js"
import type { Submission } from "../../publicForms/Submission.js"
import { newDraft } from "../../publicForms/SubmissionLifecycle.js"
import { mergeValues } from "../../publicForms/SubmissionValues.js"
import { idempotencyKey, type InMemoryData, InMemoryStore, newOutboxRow } from "../InMemoryStore.js"
import { type InMemoryEngagement, type InMemoryPortalData, InMemoryPortalStore } from "./InMemoryPortalStore.js"

const advanceSchemaOf = (data: InMemoryData, organisationId: string): FormSchema | null => {
  for (const schema of data.schemas.values()) {
    if (schema.organisation_id === organisationId && schema.type === ArtistAdvanceType) return schema
  }
  return null
}

const contextOf = (data: InMemoryData, portal: InMemoryPortalData, engagement: InMemoryEngagement): PortalContext | null => {
  const artist = portal.artists.get(engagement.master_artist_id)
  const event = data.seed.events.find((candidate) => candidate.id === engagement.event_id)
  if (artist === undefined || event === undefined) return null
  return {
    engagement: {
      id: engagement.id,
      organisation_id: engagement.organisation_id,
      event: { id: event.id, name: event.name },
      master_artist_id: engagement.master_artist_id
    },
    artist: { id: artist.id, name: artist.name, deleted_at: artist.deleted_at },
    sections: [...portal.sections.values()]
      .filter((section) => section.engagement_id === engagement.id)
      .map(({ engagement_id: _, ...section }) => section),
    advance_schema: advanceSchemaOf(data, engagement.organisation_id)
  }
}

const findDraft = (data: InMemoryData, schemaId: string, engagementId: string): Submission | undefined => {
  const id = data.keys.get(idempotencyKey(schemaId, advanceDraftKey(engagementId)))
  return id === undefined ? undefined : data.submissions.get(id)
}

const inMemoryEngagementsLayer = Layer.effect(
  Engagements,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const portal = (yield* InMemoryPortalStore).data
    const { data } = store
    const signal = yield* Effect.serviceOption(OutboxSignal)
    const notify = Option.isSome(signal) ? signal.value.notify : Effect.void

    return Engagements.of({
      findByToken: (token) =>
        store.atomically(() => {
          for (const engagement of portal.engagements.values()) {
            if (token !== "" && engagement.portal_token === token) {
              return Result.succeed(Option.fromNullishOr(contextOf(data, portal, engagement)))
            }
          }
          return Result.succeed(Option.none())
        }),
      findById: (engagementId) =>
        store.atomically(() => {
          const engagement = portal.engagements.get(engagementId)
          return Result.succeed(
            Option.fromNullishOr(engagement === undefined ? null : contextOf(data, portal, engagement))
          )
        }),
      findAdvanceDraft: (schemaId, engagementId) =>
        store.atomically(() => Result.succeed(Option.fromUndefinedOr(findDraft(data, schemaId, engagementId)))),
      createAdvanceDraft: (init) =>
        store.atomically((): Result.Result<Submission, RevisionChanged> => {
          const existing = findDraft(data, init.schema_id, init.engagement_id)
          if (existing !== undefined) return Result.succeed(existing)
          if (!data.schemas.has(init.schema_id)) return Result.fail(new RevisionChanged())
          const key = advanceDraftKey(init.engagement_id)
          const draft = newDraft({
            id: store.nextId("submission"),
            schema_id: init.schema_id,
            idempotency_key: key,
            event_id: init.event_id,
            subject_id: init.subject_id,
            values: {},
            // As the SQL column's default: a portal draft records no visitor's choice.
            language: "en",
            now: init.created_at
          })
          data.submissions.set(draft.id, draft)
          data.keys.set(idempotencyKey(init.schema_id, key), draft.id)
          return Result.succeed(draft)
        }),
      submitSection: (command) =>
        store.atomically((): Result.Result<
          SubmitSectionResult,
          SectionNotFound | SectionLocked | RevisionChanged | VersionConflict
        > => {
          const section = portal.sections.get(command.section_id)
          if (section === undefined || section.engagement_id !== command.engagement_id) {
            return Result.fail(new SectionNotFound({}))
          }
          if (isLockedAt(section, command.submitted_at)) return Result.fail(new SectionLocked({}))
          if (command.revision !== undefined && data.schemas.get(command.schema_id)?.revision !== command.revision) {
            return Result.fail(new RevisionChanged())
          }
          const draft = data.submissions.get(command.draft_id)
          if (draft === undefined || draft.schema_id !== command.schema_id || draft.version !== command.expected_version) {
            return Result.fail(new VersionConflict({}))
          }
          const at = command.submitted_at
          const submission: Submission = {
            ...draft,
            values: mergeValues(draft.values, command.values),
            updated_at: at,
            version: draft.version + 1
          }
          const submitted = { ...section, status: "submitted" as const, submitted_at: at }
          data.submissions.set(submission.id, submission)
          portal.sections.set(section.id, submitted)
          data.outbox.push(newOutboxRow(store.nextId("event"), command.event, at))
          const { engagement_id: _, ...advanceSection } = submitted
          return Result.succeed({ submission, section: advanceSection })
        }).pipe(Effect.tap(() => notify)),
      saveSection: (command) =>
        store.atomically((): Result.Result<Submission, SectionNotFound | SectionLocked | RevisionChanged | VersionConflict> => {
          const section = portal.sections.get(command.section_id)
          if (section === undefined || section.engagement_id !== command.engagement_id) {
            return Result.fail(new SectionNotFound({}))
          }
          if (isLockedAt(section, command.saved_at)) return Result.fail(new SectionLocked({}))
          if (command.revision !== undefined && data.schemas.get(command.schema_id)?.revision !== command.revision) {
            return Result.fail(new RevisionChanged())
          }
          const draft = data.submissions.get(command.draft_id)
          if (draft === undefined || draft.schema_id !== command.schema_id) return Result.fail(new VersionConflict({}))
          const saved: Submission = {
            ...draft,
            values: mergeValues(draft.values, command.values),
            updated_at: command.saved_at,
            version: draft.version + 1,
            auto_save_count: draft.auto_save_count + 1
          }
          data.submissions.set(saved.id, saved)
          return Result.succeed(saved)
        })
    })
  })
)

const inMemoryValueTargetsLayer = Layer.effect(
  ValueTargets,
  Effect.gen(function*() {
    const store = yield* InMemoryStore
    const portal = (yield* InMemoryPortalStore).data
    return ValueTargets.of({
      apply: (command) =>
        store.atomically(() => {
          const engagement = portal.engagements.get(command.engagement_id)
          const artist = engagement === undefined ? undefined : portal.artists.get(engagement.master_artist_id)
          if (engagement === undefined || artist === undefined) return Result.succeed(false)
          const last = engagement.advance_source
          const source = command.source
          // Values from an older version of the draft last applied: a late apply, which changes nothing.
          if (source !== undefined && last !== null && last.submission_id === source.submission_id && last.version > source.version) {
            return Result.succeed(true)
          }
          artist.profile = mergeValues(artist.profile, command.artist)
          engagement.advance = mergeValues(engagement.advance, command.engagement)
          if (source !== undefined) engagement.advance_source = source
          return Result.succeed(true)
        }),
      read: (engagementId) =>
        store.atomically(() => {
          const engagement = portal.engagements.get(engagementId)
          const artist = engagement === undefined ? undefined : portal.artists.get(engagement.master_artist_id)
          if (engagement === undefined || artist === undefined) return Result.succeed(Option.none())
          return Result.succeed(Option.some({
            profile: copyValues(artist.profile),
            advance: copyValues(engagement.advance)
          }))
        })
    })
  })
)

/** The layer of `InMemoryEngagements`: `InMemoryEngagements.layer`. */
export const InMemoryEngagements = { layer: inMemoryEngagementsLayer } as const

/** The layer of `InMemoryValueTargets`: `InMemoryValueTargets.layer`. */
export const InMemoryValueTargets = { layer: inMemoryValueTargetsLayer } as const
