/** The value-applying pipeline of `section.submitted` (CONTRACT §5): `maps_to` targets into artist profile / engagement advance. */
import { Effect, Option } from "effect"
import type { FormField } from "../forms/FormField.js"
import { sectionFields } from "../portal/SectionMapping.js"
import { Engagements } from "../ports/Engagements.js"
import { ValueTargets } from "../ports/ValueTargets.js"
import { emptyValues, type Values } from "../Values.js"
import { onSectionSubmitted } from "./EventHandlers.js"
import { HandlerInputMissing } from "./HandlerErrors.js"

const mapsToPattern = /^(artist|engagement)\.([a-z][a-z0-9_]{0,63})$/

export interface MapsTo {
  readonly target: "artist" | "engagement"
  readonly key: string
}

/** `artist.<key>` or `engagement.<key>`; anything else (including null) is not a target. */
export const parseMapsTo = (mapsTo: string | null): MapsTo | null => {
  const match = mapsTo === null ? null : mapsToPattern.exec(mapsTo)
  if (match === null) return null
  const [, target, key] = match
  return (target === "artist" || target === "engagement") && key !== undefined ? { target, key } : null
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

export const valueApplyingName = "value-applying"

/**
 * Applies the section's current values from the advance draft (the event's values when the draft is
 * not there): a redelivery, or a late retry of an older event, writes the latest values again, never
 * older ones. Fields come from the current advance schema's section named by the event.
 */
export const makeValueApplying = Effect.gen(function*() {
  const engagements = yield* Engagements
  const targets = yield* ValueTargets
  return onSectionSubmitted(valueApplyingName, (payload) =>
    Effect.gen(function*() {
      const found = yield* engagements.findById(payload.engagement_id)
      if (Option.isNone(found)) {
        return yield* new HandlerInputMissing({ message: `engagement ${payload.engagement_id} not found` })
      }
      const schema = found.value.advance_schema
      // The section left the advance schema since: nothing of it maps anywhere any more.
      if (schema === null || !schema.sections.some((section) => section.id === payload.form_section_id)) return
      const fields = sectionFields(schema, payload.form_section_id)
      const draft = yield* engagements.findAdvanceDraft(schema.id, payload.engagement_id)
      const values = Option.isSome(draft) && draft.value.id === payload.submission_id ? draft.value.values : payload.values
      const mapped = mappedValues(fields, values)
      if (Object.keys(mapped.artist).length === 0 && Object.keys(mapped.engagement).length === 0) return
      const applied = yield* targets.apply({
        engagement_id: payload.engagement_id,
        artist: mapped.artist,
        engagement: mapped.engagement
      })
      if (!applied) {
        return yield* new HandlerInputMissing({ message: `engagement ${payload.engagement_id} not found` })
      }
    }))
})
