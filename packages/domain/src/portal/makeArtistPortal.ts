/** The ArtistPortal use cases over the ports, in the order of checks of CONTRACT §5. */
import { Clock, Effect, Layer, Option } from "effect"
import { ArtistGone, PortalNotFound, RateLimited, SectionNotFound, ValidationFailed } from "../Errors.js"
import type { FormField } from "../forms/FormField.js"
import type { FormSchema, FormSection } from "../forms/FormSchema.js"
import { FormsConfig } from "../FormsConfig.js"
import { Engagements } from "../ports/Engagements.js"
import { RateLimiter } from "../ports/RateLimiter.js"
import type { CompiledRules } from "../rules/FieldErrors.js"
import { makeRulesCache } from "../rules/RulesCache.js"
import { toRateLimitState } from "../submissions/rateLimitState.js"
import { mergeValues, pickSchemaValues } from "../submissions/SubmissionValues.js"
import { emptyValues, type Values } from "../Values.js"
import { ArtistPortal, type PortalSectionView, type PortalSummary } from "./ArtistPortal.js"
import type { AdvanceSection, PortalContext } from "./Engagement.js"
import { findMappedSection, mapSections, sectionFields } from "./SectionMapping.js"

export const portalPolicy = "portal"
export const portalWindowMs = 60_000

/** The limiter key: per engagement, per client IP; the three portal routes share it. */
export const portalRateLimitKey = (engagementId: string, clientIp: string): string =>
  `portal:${engagementId}:${clientIp}`

/** Compiled rules of one form section: its fields change only with the schema's revision. */
export const sectionRulesKey = (schema: FormSchema, formSectionId: string): string =>
  `${schema.id}:${schema.revision}:${formSectionId}`

export const toSummary = (context: PortalContext): PortalSummary => ({
  engagement: { id: context.engagement.id, event: context.engagement.event },
  artist: { id: context.artist.id, name: context.artist.name },
  sections: mapSections(context.sections, context.advance_schema).map((section) => ({
    id: section.id,
    name: section.name,
    status: section.status,
    submitted_at: section.submitted_at,
    available: section.form_section !== null
  }))
})

const toView = (section: AdvanceSection, fields: ReadonlyArray<FormField>, values: Values): PortalSectionView => ({
  section: { id: section.id, name: section.name, status: section.status, submitted_at: section.submitted_at },
  fields,
  values: pickSchemaValues(fields, values)
})

export const makeArtistPortal = Effect.gen(function*() {
  const engagements = yield* Engagements
  const limiter = yield* RateLimiter
  const config = yield* FormsConfig
  const cache = makeRulesCache()

  /** Token (404) → artist (410) → rate limit (429): the steps every portal route starts with. */
  const access = Effect.fnUntraced(function*(token: string, clientIp: string) {
    const found = yield* engagements.findByToken(token)
    if (Option.isNone(found)) return yield* new PortalNotFound({})
    const context = found.value
    if (context.artist.deleted_at !== null) return yield* new ArtistGone({})
    const limit = config.portalLimitPerMinute
    const decision = yield* limiter.hit(portalRateLimitKey(context.engagement.id, clientIp), limit, portalWindowMs)
    const rateLimit = toRateLimitState(portalPolicy, limit, portalWindowMs, decision)
    if (!decision.allowed) return yield* new RateLimited({ state: rateLimit })
    return { context, rateLimit }
  })

  /** The engagement's section, only when it maps to a section of the advance schema. */
  const mapped = (context: PortalContext, sectionId: string) => {
    const found = findMappedSection(context.sections, context.advance_schema, sectionId)
    if (found === null || context.advance_schema === null) return Option.none()
    const schema = context.advance_schema
    return Option.some({ schema, section: found.section, formSection: found.form_section, fields: sectionFields(schema, found.form_section.id) })
  }

  const rules = (schema: FormSchema, formSection: FormSection, fields: ReadonlyArray<FormField>): CompiledRules =>
    cache.get(sectionRulesKey(schema, formSection.id), fields)

  const draftValues = Effect.fnUntraced(function*(schema: FormSchema, engagementId: string) {
    const draft = yield* engagements.findAdvanceDraft(schema.id, engagementId)
    return Option.isSome(draft) ? draft.value.values : emptyValues()
  })

  const summary = Effect.fnUntraced(function*(token: string, clientIp: string) {
    const { context, rateLimit } = yield* access(token, clientIp)
    return { data: toSummary(context), rateLimit }
  })

  const section = Effect.fnUntraced(function*(token: string, sectionId: string, clientIp: string) {
    const { context, rateLimit } = yield* access(token, clientIp)
    const target = mapped(context, sectionId)
    if (Option.isNone(target)) return yield* new SectionNotFound({ rateLimit })
    const { schema, section: advanceSection, fields } = target.value
    const values = yield* draftValues(schema, context.engagement.id)
    return { data: toView(advanceSection, fields, values), rateLimit }
  })

  const submitSection = Effect.fnUntraced(function*(
    token: string,
    sectionId: string,
    body: Values,
    clientIp: string
  ) {
    const { context, rateLimit } = yield* access(token, clientIp)
    const target = mapped(context, sectionId)
    if (Option.isNone(target)) return yield* new SectionNotFound({ rateLimit })
    const { schema, section: advanceSection, formSection, fields } = target.value
    // Only the section's slugs are read from the body and from the draft; everything else is dropped.
    const saved = pickSchemaValues(fields, yield* draftValues(schema, context.engagement.id))
    const merged = pickSchemaValues(fields, mergeValues(saved, pickSchemaValues(fields, body)))
    // `unique` is not checked: advance submissions stay drafts, so no submitted submission can hold a value.
    const check = rules(schema, formSection, fields).strict(merged)
    if (check.errors !== undefined) return yield* new ValidationFailed({ fields: check.errors, rateLimit })

    const submittedAt = yield* Clock.currentTimeMillis
    const result = yield* engagements.submitSection({
      engagement_id: context.engagement.id,
      section_id: advanceSection.id,
      schema_id: schema.id,
      form_section_id: formSection.id,
      subject_id: context.artist.id,
      event_id: context.engagement.event.id,
      values: merged,
      submitted_at: submittedAt
    }).pipe(Effect.catchTag("SectionNotFound", () => Effect.fail(new SectionNotFound({ rateLimit }))))
    return { data: toView(result.section, fields, result.submission.values), rateLimit }
  })

  return ArtistPortal.of({ summary, section, submitSection })
})

/** Needs Engagements, RateLimiter and FormsConfig. */
export const ArtistPortalLayer = Layer.effect(ArtistPortal, makeArtistPortal)
