/** The value-applying pipeline of `section.submitted` (CONTRACT §5): `maps_to` targets into artist profile / engagement advance. */
import { Effect, Option } from "effect"
import { type FormField, mapsToPattern } from "../forms/FormField.js"
import type { FormSchema } from "../forms/FormSchema.js"
import { emptyValues, type Values } from "../forms/Values.js"
import type { PortalContext } from "../portal/Engagement.js"
import { Engagements } from "../portal/Engagements.js"
import { mapSections, sectionFields } from "../portal/SectionMapping.js"
import { ValueTargets } from "../portal/ValueTargets.js"
import { compareStrings } from "../shared/compareStrings.js"
import { HandlerInputMissing } from "./errors.js"
import { onSectionSubmitted } from "./EventHandlers.js"

export interface MapsTo {
  readonly target: "artist" | "engagement"
  readonly key: string
}

/** `artist.<key>` or `engagement.<key>`; anything else (including null) is not a target. */
export const parseMapsTo = (mapsTo: string | null): MapsTo | null => {
  // The one syntax of `maps_to`, as the definition check accepts it.
  if (mapsTo === null || !mapsToPattern.test(mapsTo)) return null
  const dot = mapsTo.indexOf(".")
  const target = mapsTo.slice(0, dot)
  return target === "artist" || target === "engagement" ? { target, key: mapsTo.slice(dot + 1) } : null
}

export interface MappedValues {
  readonly artist: Record<string, unknown>
  readonly engagement: Record<string, unknown>
}

/** The values of `fields` that have a target, under their keys. A field without a value writes nothing. */
export const mappedValues = (fields: ReadonlyArray<FormField>, values: Values): MappedValues => {
  const out = { artist: emptyValues(), engagement: emptyValues() }
  for (const field of fields) {
    const mapsTo = parseMapsTo(field.maps_to)
    if (mapsTo === null || !Object.hasOwn(values, field.slug)) continue
    out[mapsTo.target][mapsTo.key] = values[field.slug]
  }
  return out
}

/**
 * The mapped values of every submitted section of the engagement, from the advance draft's `values`: the sections
 * in the order they were last submitted (then by id), so that of two sections mapping one key the later submitted
 * wins, whichever event is being handled.
 */
export const appliedValues = (context: PortalContext, schema: FormSchema, values: Values): MappedValues => {
  const out = { artist: emptyValues(), engagement: emptyValues() }
  const submitted = mapSections(context.sections, schema)
    .filter((section) => section.status === "submitted")
    .sort((a, b) => (a.submitted_at ?? 0) - (b.submitted_at ?? 0) || compareStrings(a.id, b.id))
  for (const section of submitted) {
    if (section.form_section === null) continue
    const mapped = mappedValues(sectionFields(schema, section.form_section.id), values)
    for (const [key, value] of Object.entries(mapped.artist)) out.artist[key] = value
    for (const [key, value] of Object.entries(mapped.engagement)) out.engagement[key] = value
  }
  return out
}

export const valueApplyingName = "value-applying"

/**
 * Applies the mapped values of every submitted section as the advance draft holds them now, fenced on the
 * draft's version: a redelivery, a late retry of an older event, or an older event's apply landing after a
 * newer one's on another process, never writes older values. The draft is read before the sections it is
 * judged by, so the version recorded is never newer than what was computed. The payload's values (of its
 * section only, unfenced) are used when the event's draft is gone.
 */
export const makeValueApplying = Effect.gen(function*() {
  const engagements = yield* Engagements
  const targets = yield* ValueTargets
  const context = (engagementId: string) =>
    engagements.findById(engagementId).pipe(
      Effect.flatMap(Effect.fromOption(() => new HandlerInputMissing({ message: `engagement ${engagementId} not found` })))
    )
  return onSectionSubmitted(valueApplyingName, (payload) =>
    Effect.gen(function*() {
      const first = yield* context(payload.engagement_id)
      const schema = first.advance_schema
      // The section left the advance schema since: nothing of it maps anywhere any more.
      if (schema === null || !schema.sections.some((section) => section.id === payload.form_section_id)) return
      const draft = yield* engagements.findAdvanceDraft(schema.id, payload.engagement_id)
      const command = Option.isSome(draft) && draft.value.id === payload.submission_id
        ? {
          ...appliedValues(yield* context(payload.engagement_id), schema, draft.value.values),
          source: { submission_id: draft.value.id, version: draft.value.version }
        }
        : mappedValues(sectionFields(schema, payload.form_section_id), payload.values)
      if (Object.keys(command.artist).length === 0 && Object.keys(command.engagement).length === 0) return
      if (!(yield* targets.apply({ engagement_id: payload.engagement_id, ...command }))) {
        return yield* new HandlerInputMissing({ message: `engagement ${payload.engagement_id} not found` })
      }
    }))
})
