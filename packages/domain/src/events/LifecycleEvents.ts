/** The lifecycle events of CONTRACT §6: their types, payload Schemas and the constructors every writer uses. */
import { Schema } from "effect"
import { FilesBySlug } from "../files/UploadedFile.js"
import { copyValues, Values } from "../forms/Values.js"
import { SubmissionPlace } from "../shifts/RegistrationData.js"
import type { EventType, NewOutboxEvent } from "./Outbox.js"

export const SubmissionSubmittedType = "submission.submitted" satisfies EventType
export const SectionSubmittedType = "section.submitted" satisfies EventType
/** A submission was erased by an organiser (§12); payload `submission_id, schema_id, organisation_id`. */
export const SubmissionErasedType = "submission.erased" satisfies EventType
/** An organiser's change locked an advance section (§21); payload `engagement_id, section_id`. */
export const SectionLockedType = "section.locked" satisfies EventType
/** An organiser's change opened a locked advance section (§21); payload `engagement_id, section_id`. */
export const SectionReopenedType = "section.reopened" satisfies EventType

/**
 * A waiting place was confirmed (CONTRACT §22), recorded by the step that freed a place; payload `submission_id,
 * slot_id`, with `schema_id` and `organisation_id` for the webhooks' fan-out.
 */
export const PlacePromotedType = "place.promoted" satisfies EventType

export const placePromoted = (payload: {
  readonly submission_id: string
  readonly slot_id: string
  readonly schema_id: string
  readonly organisation_id: string
}): NewOutboxEvent => ({ type: PlacePromotedType, payload: { ...payload } })

/**
 * A place was given up (CONTRACT §22): by its volunteer on the manage page, or removed by a coordinator; payload
 * `submission_id, slot_id`, with `schema_id` and `organisation_id` for the webhooks' fan-out.
 */
export const PlaceCancelledType = "place.cancelled" satisfies EventType

export const placeCancelled = (payload: {
  readonly submission_id: string
  readonly slot_id: string
  readonly schema_id: string
  readonly organisation_id: string
}): NewOutboxEvent => ({ type: PlaceCancelledType, payload: { ...payload } })

/** A public form was submitted (recorded by `Submissions.submit`). */
export const SubmissionSubmittedPayload = Schema.Struct({
  submission_id: Schema.String,
  schema_id: Schema.String,
  organisation_id: Schema.String,
  event_id: Schema.NullOr(Schema.String),
  /** The submitted values: exactly the merged map that passed strict validation. */
  values: Values,
  /** ISO 8601 UTC: the payload is stored as JSON and may leave the process, like the wire. */
  submitted_at: Schema.String,
  /** The submission's language (CONTRACT §19); absent from events recorded before languages. */
  language: Schema.optionalKey(Schema.String),
  /** On a form with a `time_slots` field (CONTRACT §22): the places the submit took, as it took them. */
  places: Schema.optionalKey(Schema.Array(SubmissionPlace)),
  /** On a form with a file field (CONTRACT §23): the uploads the values reference, by field slug. */
  files: Schema.optionalKey(FilesBySlug)
})
export type SubmissionSubmittedPayload = typeof SubmissionSubmittedPayload.Type

/** An artist portal section was submitted (recorded by `Engagements.submitSection`). */
export const SectionSubmittedPayload = Schema.Struct({
  engagement_id: Schema.String,
  /** The engagement's advance section. */
  section_id: Schema.String,
  /** The section of the organisation's `artist_advance` schema it maps to. */
  form_section_id: Schema.String,
  /** The engagement's advance draft (idempotency key `artist_advance:{engagement_id}`). */
  submission_id: Schema.String,
  /** The section's values as stored: only the slugs of that section's fields. */
  values: Values
})
export type SectionSubmittedPayload = typeof SectionSubmittedPayload.Type

export interface SubmissionSubmittedInput {
  readonly submission_id: string
  readonly schema_id: string
  readonly organisation_id: string
  readonly event_id: string | null
  readonly values: Values
  /** Epoch milliseconds, the same instant as the submission's `submitted_at`. */
  readonly submitted_at: number
  /** The submission's language as the submit leaves it. */
  readonly language: string,
  /** A form with a `time_slots` field: `[]` until the submit's step sets the places it took (shifts/placesTaken.ts). */
  readonly places?: ReadonlyArray<SubmissionPlace> | undefined
  readonly files?: FilesBySlug
}

/** The `submission.submitted` outbox event of a submit (CONTRACT §6). */
export const submissionSubmitted = (input: SubmissionSubmittedInput): NewOutboxEvent => ({
  type: SubmissionSubmittedType,
  payload: {
    submission_id: input.submission_id,
    schema_id: input.schema_id,
    organisation_id: input.organisation_id,
    event_id: input.event_id,
    values: copyValues(input.values),
    submitted_at: new Date(input.submitted_at).toISOString(),
    language: input.language,
    ...(input.places === undefined ? {} : { places: input.places.map((place) => ({ ...place })) }),
    ...(input.files === undefined ? {} : { files: copyFiles(input.files) })
  }
})

const copyFiles = (files: FilesBySlug): FilesBySlug => {
  const out = Object.create(null) as Record<string, FilesBySlug[string]>
  for (const [slug, list] of Object.entries(files)) out[slug] = list.map((file) => ({ ...file }))
  return out
}

/** The `section.submitted` outbox event of a portal section submit (CONTRACT §5, §6). */
export const sectionSubmitted = (input: SectionSubmittedPayload): NewOutboxEvent => ({
  type: SectionSubmittedType,
  payload: {
    engagement_id: input.engagement_id,
    section_id: input.section_id,
    form_section_id: input.form_section_id,
    submission_id: input.submission_id,
    values: copyValues(input.values)
  }
})

/** The payload of `section.locked` and `section.reopened`. */
export const SectionLockPayload = Schema.Struct({ engagement_id: Schema.String, section_id: Schema.String })
export type SectionLockPayload = typeof SectionLockPayload.Type

/** The `section.locked` outbox event of an organiser's change that locks a section (CONTRACT §21). */
export const sectionLocked = (input: SectionLockPayload): NewOutboxEvent => ({
  type: SectionLockedType,
  payload: { engagement_id: input.engagement_id, section_id: input.section_id }
})

/** The `section.reopened` outbox event of an organiser's change that opens a locked section (CONTRACT §21). */
export const sectionReopened = (input: SectionLockPayload): NewOutboxEvent => ({
  type: SectionReopenedType,
  payload: { engagement_id: input.engagement_id, section_id: input.section_id }
})

export const decodeSubmissionSubmitted = Schema.decodeUnknownEffect(SubmissionSubmittedPayload)
export const decodeSectionSubmitted = Schema.decodeUnknownEffect(SectionSubmittedPayload)
