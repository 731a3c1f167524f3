/**
 * `@forms/domain/internal`: what the adapters of this repository share with the domain, by feature folder (limit
 * steps, lifecycle decisions, event constructors, dispatcher and engine steps, body checks, key rules). Not covered
 * by semver: any release may change or remove them. Embedders use the root entry.
 */

// Shared
export { compareStrings } from "./shared/compareStrings.js"

// forms: the listed form and field types
export { fieldTypes, FieldType, formTypes, FormType } from "./forms/FormTypes.js"

// rules
export { unstorablePaths } from "./rules/bodyChecks.js"
export { isEmptyValue, trimString } from "./rules/emptiness.js"
export { uniqueMessage } from "./rules/FieldErrors.js"
export { requiredMessage } from "./rules/messages.js"
export { makeRulesCache, type RulesCache } from "./rules/RulesCache.js"
export { slotIdsOf } from "./rules/SlotChoice.js"
export { numericKey, phoneKey } from "./rules/uniqueKey.js"

// limits
export { type UnderLimit, underLimit } from "./limits/Limited.js"
export { type LimitPolicy, limitKey, portalPolicy, submitPolicy, writePolicy } from "./limits/LimitPolicy.js"
export { limitStep } from "./limits/limitStep.js"
export { toRateLimitState } from "./limits/RateLimitState.js"

// shifts
export { checkSlotChoices, isFormSlot } from "./shifts/slotChoices.js"
export { intervalsOverlap, overlappingSlotIds, slotInterval } from "./shifts/slotIntervals.js"
export { durationHours, formatTime, parseMinutes } from "./shifts/slotTimes.js"
export { effectiveTimeZone, instantHours, type SlotClock, type SlotInstants, slotInstants } from "./shifts/slotInstants.js"
export { defaultTimeZone, instantOf, offsetAt, timeZoneName, wallAt } from "./shifts/zonedTime.js"
export { remainingPlaces } from "./shifts/TimeSlot.js"
export { festivalEventIds, toTimeSlots } from "./shifts/timeSlots.js"

// publicForms: values and the lifecycle of a submission, the steps of the use cases
export { type FormSteps, makeFormSteps } from "./publicForms/formSteps.js"
export { registrationSections } from "./publicForms/registrationSections.js"
export { acceptsSubmissions, portalOnlyFormType, resolvePublicForm } from "./publicForms/resolvePublicForm.js"
export { maxSubmitAttempts, makeSubmitDraft } from "./publicForms/submitDraft.js"
export { applySave, applySubmit, type DraftInit, isDraft, newDraft } from "./publicForms/SubmissionLifecycle.js"
export { mergeValues, pickSchemaValues, schemaSlugs } from "./publicForms/SubmissionValues.js"
export { withUniqueErrors } from "./publicForms/uniqueErrors.js"

// portal
export { advanceDraftKey, ArtistAdvanceType } from "./portal/Engagement.js"
export { applySchedule, lockTransition, noSchedule, type SchedulePatch } from "./portal/SectionLock.js"
export { toSummary } from "./portal/makeArtistPortal.js"
export * from "./portal/SectionMapping.js"

// events
export { attemptInRound, backoffDelay, nextRetryAt } from "./events/Backoff.js"
export { type BatchResult, dispatchBatch, runDispatcher } from "./events/Dispatcher.js"
export { identityKey, identityMatchName, makeIdentityMatch } from "./events/IdentityMatch.js"
export { makeInProcessSignal } from "./events/InProcessSignal.js"
export { sectionSubmitted, submissionSubmitted, type SubmissionSubmittedInput } from "./events/LifecycleEvents.js"
export { makeTagSync, submissionTags, tagSyncName } from "./events/TagSync.js"
export {
  type MappedValues,
  mappedValues,
  type MapsTo,
  makeValueApplying,
  parseMapsTo,
  valueApplyingName
} from "./events/ValueApplying.js"

// organiser: the member checks of request bodies, the shape of a bearer token, how often a key's use is recorded
export { artistInput } from "./organiser/artists/artistInput.js"
export { eventInput, eventPatch, sectionInput, sectionPatch, slotInput, slotPatch } from "./organiser/catalog/catalogInput.js"
export { isBearerToken, touchIntervalMs } from "./organiser/catalog/CatalogUseCases.js"
export { nameCheck } from "./organiser/catalog/memberChecks.js"
export { engagementInput } from "./organiser/engagements/engagementInput.js"

// organiser/forms: reading a definition body, If-Match, the definition check's limits and names
export { definitionLimits, timeSlotsFieldType, volunteerFormType } from "./organiser/forms/checkDefinition.js"
export {
  type DefinitionInput,
  definitionInput,
  formPatchInput,
  readOnlyFormMembers,
  withIds
} from "./organiser/forms/formInput.js"
export { preconditionOf } from "./organiser/forms/ifMatch.js"

// submissionsOut: the cells and lines of a CSV export
export { cellText, csvField, csvLine, fixedExportColumns, slotColumns } from "./submissionsOut/exportFormat.js"

// webhooks: the address guard, the delivery schedule, the message, the engine's steps
export { forbiddenAddressReason, parseTargetUrl, type TargetPolicy, type TargetUrl, urlProblem } from "./webhooks/addressGuard.js"
export { nextAttemptAt, parseRetryAfter } from "./webhooks/deliverySchedule.js"
export { attemptDelivery, deliverBatch, deliveryClaimPolicy, runWebhookEngine } from "./webhooks/WebhookEngine.js"
export { messageBody, signingSecrets } from "./webhooks/WebhookMessage.js"

// operations: the counters (read by the standalone server's Prometheus endpoint)
export {
  countRefusal, rateLimitRefusals, type RefusalPolicy, refusalPolicies, registerCounters, submissionsSubmitted,
  webhookAttempts
} from "./operations/counters.js"
