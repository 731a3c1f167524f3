/** The ArtistPortal use cases over the ports, in the order of checks of CONTRACT §5. */
import { Clock, Effect, Layer, Option } from "effect"
import { sectionSubmitted } from "../events/LifecycleEvents.js"
import type { FormField } from "../forms/FormField.js"
import type { FormSchema } from "../forms/FormSchema.js"
import { emptyValues, type Values } from "../forms/Values.js"
import { FormsConfig } from "../FormsConfig.js"
import { underLimit } from "../limits/Limited.js"
import { type Client, portalPolicy } from "../limits/LimitPolicy.js"
import { limitStep } from "../limits/limitStep.js"
import { RateLimiter } from "../limits/RateLimiter.js"
import { revisionRounds } from "../publicForms/formSteps.js"
import type { Submission } from "../publicForms/Submission.js"
import { mergeValues, pickSchemaValues, withoutSlugs } from "../publicForms/SubmissionValues.js"
import { makeRulesCache } from "../rules/RulesCache.js"
import { Unavailable } from "../shared/errors.js"
import { AnotherRound, atMostRounds, inRounds } from "../shared/rounds.js"
import { ArtistPortal, type PortalSectionView, type PortalSummary } from "./ArtistPortal.js"
import type { AdvanceSection, PortalContext } from "./Engagement.js"
import { type AnswerLanguage, chooseAnswerLanguage } from "../languages/AnswerLanguage.js"
import { failedInLanguage } from "../languages/failedInLanguage.js"
import { Engagements } from "./Engagements.js"
import { ArtistGone, PortalNotFound, SectionLocked, SectionNotFound } from "./errors.js"
import { isLockedAt, isOverdueAt } from "./SectionLock.js"
import { findMappedSection, mapSections, sectionFields } from "./SectionMapping.js"

/** A write that lands between our read and our write costs one round; this many writes refused and we give up (503). */
export const maxSectionAttempts = 50
const sectionRounds = atMostRounds(maxSectionAttempts)

/** The summary as it stands at `now` (epoch ms): locks and overdue marks are computed for that instant. */
export const toSummary = (context: PortalContext, now: number): PortalSummary => ({
  engagement: { id: context.engagement.id, event: context.engagement.event },
  artist: { id: context.artist.id, name: context.artist.name },
  ...(context.advance_schema?.languages === undefined ? {} : { languages: context.advance_schema.languages }),
  sections: mapSections(context.sections, context.advance_schema).map((section) => ({
    id: section.id,
    name: section.name,
    status: section.status,
    submitted_at: section.submitted_at,
    available: section.form_section !== null,
    locked: isLockedAt(section, now),
    due_at: section.due_at,
    locks_at: section.locks_at,
    overdue: isOverdueAt(section.status, section, now)
  }))
})

const toView = (
  section: AdvanceSection,
  fields: ReadonlyArray<FormField>,
  values: Values,
  schema: Pick<FormSchema, "languages" | "translations">
): PortalSectionView => ({
  section: { id: section.id, name: section.name, status: section.status, submitted_at: section.submitted_at },
  fields,
  values: pickSchemaValues(fields, values),
  ...(schema.languages === undefined ? {} : { languages: schema.languages }),
  ...(schema.translations === undefined ? {} : { translations: schema.translations })
})

export const makeArtistPortal = Effect.gen(function*() {
  const engagements = yield* Engagements
  const limit = limitStep(yield* RateLimiter)
  const config = yield* FormsConfig
  const cache = makeRulesCache()

  /**
   * Token (404) → artist (410) → the portal limit (429, the portal routes share it per engagement), then
   * `after` under the limit: its answer and its refusals carry the limiter's state.
   */
  const underAccess = <A, E, R>(
    token: string,
    client: Client,
    after: (context: PortalContext) => Effect.Effect<A, E, R>,
    language?: AnswerLanguage
  ) =>
    Effect.gen(function*() {
      const context = yield* access(token)
      // The advance form's languages decide the answer's (CONTRACT §19); a portal without one answers its default.
      yield* chooseAnswerLanguage(context.advance_schema ?? {}, language)
      const rateLimit = yield* limit(portalPolicy, config.portalLimitPerMinute, context.engagement.id, client)
      return yield* underLimit(rateLimit)(after(context))
    })

  /** Token (404) → artist (410): the context as read now. */
  const access = Effect.fnUntraced(function*(token: string) {
    const found = yield* engagements.findByToken(token)
    if (Option.isNone(found)) return yield* new PortalNotFound({})
    if (found.value.artist.deleted_at !== null) return yield* new ArtistGone({})
    return found.value
  })

  /** The engagement's section, only when it maps to a section of the advance schema. */
  const mapped = (context: PortalContext, sectionId: string) => {
    const found = findMappedSection(context.sections, context.advance_schema, sectionId)
    if (found === null || context.advance_schema === null) return Option.none()
    const schema = context.advance_schema
    return Option.some({ schema, section: found.section, formSection: found.form_section, fields: sectionFields(schema, found.form_section.id) })
  }

  const draftValues = Effect.fnUntraced(function*(schema: FormSchema, engagementId: string) {
    const draft = yield* engagements.findAdvanceDraft(schema.id, engagementId)
    return Option.isSome(draft) ? draft.value.values : emptyValues()
  })

  const summary = Effect.fn("ArtistPortal.summary")(function*(token: string, client: Client, language?: AnswerLanguage) {
    return yield* underAccess(
      token,
      client,
      (context) => Effect.map(Clock.currentTimeMillis, (now) => toSummary(context, now)),
      language
    )
  })

  const section = Effect.fn("ArtistPortal.section")(function*(
    token: string,
    sectionId: string,
    client: Client,
    language?: AnswerLanguage
  ) {
    return yield* underAccess(token, client, (context) =>
      Effect.gen(function*() {
        const target = mapped(context, sectionId)
        if (Option.isNone(target)) return yield* new SectionNotFound({})
        const { schema, section: advanceSection, fields } = target.value
        const values = yield* draftValues(schema, context.engagement.id)
        return toView(advanceSection, fields, values, schema)
      }), language)
  })

  /**
   * One section submit under the context as read: none when the advance schema left the revision its values
   * were validated against before they were written (nothing was written then).
   */
  const submitUnder = Effect.fnUntraced(function*(
    context: PortalContext,
    sectionId: string,
    body: Values,
    language: AnswerLanguage | undefined
  ) {
    const target = mapped(context, sectionId)
    if (Option.isNone(target)) return yield* new SectionNotFound({})
    const { schema, section: advanceSection, formSection, fields } = target.value
    // Locked as read (409 before validation; the write checks it again in its own statement).
    if (isLockedAt(advanceSection, yield* Clock.currentTimeMillis)) return yield* new SectionLocked({})
    const engagement = context.engagement
    // Only the section's slugs are read from the body and from the draft; everything else is dropped.
    const patch = pickSchemaValues(fields, body)
    const checked = cache.get(fields)

    /** The body merged over the draft's values of the section, checked strictly (422, nothing written). */
    const mergedOver = (draft: Option.Option<Submission>) => {
      const saved = Option.isSome(draft) ? pickSchemaValues(fields, draft.value.values) : emptyValues()
      const merged = mergeValues(saved, patch)
      // `unique` is not checked: advance submissions stay drafts, so no submitted submission can hold a value.
      const check = checked.strict(merged)
      // Inactive fields (CONTRACT §18) stay in the draft but are left out of the event (and so of value applying).
      return check.errors === undefined
        ? Effect.succeed({ merged, sent: withoutSlugs(merged, check.inactive) })
        : Effect.fail(failedInLanguage(check.errors, { ...schema, fields }, language))
    }

    // Read, merge, validate, then write only while the draft is still the one we read (a versioned
    // write): a racing submit makes ours read again, so neither loses the other's values (CONTRACT §8).
    let draft = yield* engagements.findAdvanceDraft(schema.id, engagement.id)
    let conflicted = false
    const submitRound = Effect.gen(function*() {
      if (conflicted) draft = yield* engagements.findAdvanceDraft(schema.id, engagement.id)
      let { merged, sent } = yield* mergedOver(draft)
      if (Option.isNone(draft)) {
        // Created only once the values are valid (a refused POST writes nothing); then merged again over
        // what it holds, as a racing submit may have created it first. A form deleted meanwhile: read again.
        const created = yield* engagements.createAdvanceDraft({
          engagement_id: engagement.id,
          schema_id: schema.id,
          subject_id: context.artist.id,
          event_id: engagement.event.id,
          created_at: yield* Clock.currentTimeMillis
        }).pipe(Effect.map(Option.some), Effect.catchTag("RevisionChanged", () => Effect.succeed(Option.none())))
        if (Option.isNone(created)) return Option.none<PortalSectionView>()
        draft = created
        ;({ merged, sent } = yield* mergedOver(draft))
      }

      const current = draft.value
      const outcome = yield* engagements.submitSection({
        engagement_id: engagement.id,
        section_id: advanceSection.id,
        schema_id: schema.id,
        draft_id: current.id,
        expected_version: current.version,
        revision: schema.revision,
        values: merged,
        submitted_at: yield* Clock.currentTimeMillis,
        event: sectionSubmitted({
          engagement_id: engagement.id,
          section_id: advanceSection.id,
          form_section_id: formSection.id,
          submission_id: current.id,
          values: sent
        })
      }).pipe(
        Effect.catchTags({
          VersionConflict: () => Effect.succeed("conflict" as const),
          RevisionChanged: () => Effect.succeed("revision" as const)
        })
      )
      // SectionLocked from the write (a lock committed since the read) is not caught: 409, nothing written.
      if (outcome === "revision") return Option.none<PortalSectionView>()
      if (outcome !== "conflict") return Option.some(toView(outcome.section, fields, outcome.submission.values, schema))
      conflicted = true
      return yield* new AnotherRound()
    })
    return yield* inRounds(
      submitRound,
      sectionRounds,
      () => new Unavailable({ reason: "The advance draft kept changing; nothing was submitted." })
    )
  })

  /**
   * `step` under the portal's context, read again when `step` finds the advance schema moved on (none): the
   * values are then validated again by the new rules. The portal limit counts the request once.
   */
  const inFreshContext = <A, E, R>(
    token: string,
    client: Client,
    step: (context: PortalContext) => Effect.Effect<Option.Option<A>, E, R>,
    gaveUp: string,
    language: AnswerLanguage | undefined
  ) =>
    underAccess(token, client, (first) =>
      Effect.gen(function*() {
        let context = first
        let stale = false
        const round = Effect.gen(function*() {
          if (stale) context = yield* access(token)
          stale = true
          const view = yield* step(context)
          return Option.isSome(view) ? view.value : yield* new AnotherRound()
        })
        return yield* inRounds(round, revisionRounds, () => new Unavailable({ reason: gaveUp }))
      }), language)

  /**
   * Validated by the section's fields as read in this request, and written only while the advance schema is at
   * the revision read (CONTRACT §12, "a change applies at once").
   */
  const submitSection = Effect.fn("ArtistPortal.submitSection")(function*(
    token: string,
    sectionId: string,
    body: Values,
    client: Client,
    language?: AnswerLanguage
  ) {
    return yield* inFreshContext(
      token,
      client,
      (context) => submitUnder(context, sectionId, body, language),
      "The advance form kept changing; nothing was submitted.",
      language
    )
  })

  /**
   * One draft save under the context as read: the body's values of the section checked with relaxed rules, then
   * written over the draft's (created empty when there is none) while the section is unlocked and the schema at
   * the revision read; none when the schema moved (nothing was written then).
   */
  const saveUnder = Effect.fnUntraced(function*(
    context: PortalContext,
    sectionId: string,
    body: Values,
    language: AnswerLanguage | undefined
  ) {
    const target = mapped(context, sectionId)
    if (Option.isNone(target)) return yield* new SectionNotFound({})
    const { schema, section: advanceSection, fields } = target.value
    const now = yield* Clock.currentTimeMillis
    if (isLockedAt(advanceSection, now)) return yield* new SectionLocked({})
    const patch = pickSchemaValues(fields, body)
    const engagement = context.engagement
    const found = yield* engagements.findAdvanceDraft(schema.id, engagement.id)
    const rules = cache.get(fields)
    // With conditions, which fields are active is decided on the saved values with the body over them.
    const activity = rules.hasLogic && Option.isSome(found)
      ? mergeValues(pickSchemaValues(fields, found.value.values), patch)
      : patch
    const check = rules.relaxed(patch, activity)
    if (check.errors !== undefined) return yield* failedInLanguage(check.errors, { ...schema, fields }, language)
    const draft = Option.isSome(found) ? found : yield* engagements.createAdvanceDraft({
      engagement_id: engagement.id,
      schema_id: schema.id,
      subject_id: context.artist.id,
      event_id: engagement.event.id,
      created_at: now
    }).pipe(Effect.map(Option.some), Effect.catchTag("RevisionChanged", () => Effect.succeed(Option.none())))
    if (Option.isNone(draft)) return Option.none<PortalSectionView>()
    const saved = yield* engagements.saveSection({
      engagement_id: engagement.id,
      section_id: advanceSection.id,
      schema_id: schema.id,
      draft_id: draft.value.id,
      revision: schema.revision,
      values: patch,
      saved_at: now
    }).pipe(
      Effect.map(Option.some),
      Effect.catchTags({
        RevisionChanged: () => Effect.succeed(Option.none()),
        // The draft was deleted since it was read (its form deleted): read the context again.
        VersionConflict: () => Effect.succeed(Option.none())
      })
    )
    return Option.map(saved, (submission) => toView(advanceSection, fields, submission.values, schema))
  })

  /** PUT of a section's draft values: read again when the advance form changed meanwhile, as a submit does. */
  const saveSection = Effect.fn("ArtistPortal.saveSection")(function*(
    token: string,
    sectionId: string,
    body: Values,
    client: Client,
    language?: AnswerLanguage
  ) {
    return yield* inFreshContext(
      token,
      client,
      (context) => saveUnder(context, sectionId, body, language),
      "The advance form kept changing; nothing was saved.",
      language
    )
  })

  const page = Effect.fn("ArtistPortal.page")(function*(token: string) {
    return toSummary(yield* access(token), yield* Clock.currentTimeMillis)
  })

  return ArtistPortal.of({ page, summary, section, submitSection, saveSection })
})

/** Needs Engagements, RateLimiter and FormsConfig. */
const artistPortalLayer = Layer.effect(ArtistPortal, makeArtistPortal)

/** The layer of `ArtistPortalLive`: `ArtistPortalLive.layer`. */
export const ArtistPortalLive = { layer: artistPortalLayer } as const
