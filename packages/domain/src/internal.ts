/**
 * `@forms/domain/internal`: the helpers the adapters of this repository share with the domain (limit steps,
 * lifecycle decisions, event constructors, dispatcher steps). Not covered by semver: any release may change
 * or remove them. Embedders use the root entry.
 */

// Values and the lifecycle of a submission
export { mergeValues, pickSchemaValues, schemaSlugs } from "./publicForms/SubmissionValues.js"
export { applySave, applySubmit, type DraftInit, isDraft, newDraft } from "./publicForms/SubmissionLifecycle.js"
export { withUniqueErrors } from "./publicForms/uniqueErrors.js"
export { maxSubmitAttempts, makeSubmitDraft } from "./publicForms/submitDraft.js"
export { type FormSteps, makeFormSteps } from "./publicForms/formSteps.js"
export { acceptsSubmissions, portalOnlyFormType, resolvePublicForm } from "./publicForms/resolvePublicForm.js"

// Registration
export { compareStrings } from "./shared/compareStrings.js"
export { durationHours, formatTime, parseMinutes } from "./shifts/slotTimes.js"
export { festivalEventIds, toTimeSlots } from "./shifts/timeSlots.js"
export { registrationSections } from "./publicForms/registrationSections.js"
export { intervalsOverlap, overlappingSlotIds, slotInterval } from "./shifts/slotIntervals.js"
export { remainingPlaces } from "./shifts/TimeSlot.js"
export { checkSlotChoices, isFormSlot } from "./shifts/slotChoices.js"
export { slotIdsOf } from "./rules/SlotChoice.js"
export { type SlotChoice } from "./rules/SlotChoice.js"

// Limits
export { type LimitPolicy, limitKey, portalPolicy, submitPolicy, writePolicy } from "./limits/LimitPolicy.js"
export { toRateLimitState } from "./limits/RateLimitState.js"
export { type UnderLimit, underLimit } from "./limits/Limited.js"
export { limitStep } from "./limits/limitStep.js"

// Rules
export { uniqueMessage } from "./rules/FieldErrors.js"
export { requiredMessage } from "./rules/messages.js"
export { makeRulesCache, type RulesCache } from "./rules/RulesCache.js"
export { isEmptyValue, trimString } from "./rules/emptiness.js"
export { numericKey, phoneKey } from "./rules/uniqueKey.js"

// Portal
export { advanceDraftKey, ArtistAdvanceType } from "./portal/Engagement.js"
export * from "./portal/SectionMapping.js"
export { toSummary } from "./portal/makeArtistPortal.js"

// Events
export { sectionSubmitted, submissionSubmitted, type SubmissionSubmittedInput } from "./events/LifecycleEvents.js"
export { attemptInRound, backoffDelay, nextRetryAt } from "./events/Backoff.js"
export { type BatchResult, dispatchBatch, runDispatcher } from "./events/Dispatcher.js"
export { makeInProcessSignal } from "./events/InProcessSignal.js"
export { makeTagSync, submissionTags, tagSyncName } from "./events/TagSync.js"
export { identityKey, identityMatchName, makeIdentityMatch } from "./events/IdentityMatch.js"
export {
  type MappedValues,
  mappedValues,
  type MapsTo,
  makeValueApplying,
  parseMapsTo,
  valueApplyingName
} from "./events/ValueApplying.js"

// Organiser: the member checks of request bodies, the shape of a bearer token, how often a key's use is recorded
export { artistInput } from "./organiser/artists/artistInput.js"
export { engagementInput } from "./organiser/engagements/engagementInput.js"
export { eventInput, eventPatch, sectionInput, sectionPatch, slotInput, slotPatch } from "./organiser/catalog/catalogInput.js"
export { nameCheck } from "./organiser/catalog/memberChecks.js"
export { isBearerToken, touchIntervalMs } from "./organiser/catalog/CatalogUseCases.js"
