/** Test support: a section's values written through the Engagements port as the use case writes them, without its checks. */
import { Effect, Option } from "effect"
import { sectionSubmitted } from "../../events/LifecycleEvents.js"
import type { Values } from "../../forms/Values.js"
import { Engagements, type SubmitSectionResult } from "../../portal/Engagements.js"

export interface SectionWrite {
  readonly engagement_id: string
  readonly section_id: string
  readonly schema_id: string
  readonly form_section_id: string
  readonly subject_id: string
  readonly event_id: string
  readonly values: Values
  readonly submitted_at: number
}

/**
 * Finds or creates the advance draft and submits the section at the version read, reading again after a
 * VersionConflict (the use case's loop, without validation): for tests that need a section submitted.
 */
export const writeSection = (write: SectionWrite) =>
  Effect.gen(function*() {
    const engagements = yield* Engagements
    for (;;) {
      const found = yield* engagements.findAdvanceDraft(write.schema_id, write.engagement_id)
      const draft = Option.isSome(found) ? found.value : yield* engagements.createAdvanceDraft({
        engagement_id: write.engagement_id,
        schema_id: write.schema_id,
        subject_id: write.subject_id,
        event_id: write.event_id,
        created_at: write.submitted_at
      })
      const result = yield* engagements.submitSection({
        engagement_id: write.engagement_id,
        section_id: write.section_id,
        schema_id: write.schema_id,
        draft_id: draft.id,
        expected_version: draft.version,
        values: write.values,
        submitted_at: write.submitted_at,
        event: sectionSubmitted({
          engagement_id: write.engagement_id,
          section_id: write.section_id,
          form_section_id: write.form_section_id,
          submission_id: draft.id,
          values: write.values
        })
      }).pipe(
        Effect.map(Option.some<SubmitSectionResult>),
        Effect.catchTag("VersionConflict", () => Effect.succeed(Option.none<SubmitSectionResult>()))
      )
      if (Option.isSome(result)) return result.value
    }
  })
