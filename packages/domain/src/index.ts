/**
 * The public API of `@forms/domain` (semver): use cases and their layers, ports, errors, the public types,
 * configuration, the rule compiler and the event handlers. Helpers the adapters share are in `./internal.ts`
 * (`@forms/domain/internal`, not covered by semver); in-memory ports in `@forms/domain/memory`.
 * A name added here is public: add it to the API list of README.md too (test/api.test.ts checks both).
 */

// Configuration
export * from "./FormsConfig.js"

// Errors (every domain error; no HTTP status in them)
export * from "./shared/errors.js"
export * from "./forms/errors.js"
export * from "./rules/errors.js"
export * from "./limits/errors.js"
export * from "./portal/errors.js"
export * from "./publicForms/errors.js"

// Public types: form model, values, submissions, registration, portal, limits
export * from "./forms/FormField.js"
export * from "./forms/FormSchema.js"
export * from "./forms/Values.js"
export * from "./publicForms/Submission.js"
export * from "./shifts/TimeSlot.js"
export * from "./publicForms/RegistrationSection.js"
export type {
  AdvanceSection,
  AdvanceSectionStatus,
  Engagement,
  MasterArtist,
  PortalContext
} from "./portal/Engagement.js"
export { RateLimitState } from "./limits/RateLimitState.js"
export { type Client, clientAt } from "./limits/LimitPolicy.js"
export { type Limited, type RefusalReason, Refused } from "./limits/Limited.js"

// Use cases and their layers
export * from "./publicForms/PublicForms.js"
export { makePublicForms, PublicFormsLive } from "./publicForms/makePublicForms.js"
export * from "./portal/ArtistPortal.js"
export { ArtistPortalLive, makeArtistPortal } from "./portal/makeArtistPortal.js"

// Ports (implemented by @forms/domain/memory and @forms/adapters-sql)
export * from "./publicForms/FormSchemas.js"
export * from "./publicForms/Submissions.js"
export * from "./publicForms/UniqueValues.js"
export * from "./limits/RateLimiter.js"
export * from "./shifts/RegistrationData.js"
export * from "./events/Outbox.js"
export * from "./events/OutboxSignal.js"
export * from "./portal/Engagements.js"
export * from "./events/SchemaCatalog.js"
export * from "./events/Enrichment.js"
export * from "./portal/ValueTargets.js"

// The rule compiler (CONTRACT §4–§5) and the size limits of values (§8)
export { compileRules } from "./rules/compileRules.js"
export { checkFieldDefinitions } from "./organiser/forms/checkFields.js"
export * from "./organiser/forms/checkDefinition.js"
export { FieldError, FieldErrors, RuleName } from "./rules/FieldErrors.js"
export type { CompiledRules, UniqueCandidate, ValidationResult, Validator } from "./rules/Validator.js"
export { checkSizeLimits, defaultSizeLimits, type SizeLimits } from "./rules/sizeLimits.js"

// Lifecycle events, their handlers and the dispatcher
export {
  decodeSectionSubmitted,
  decodeSubmissionSubmitted,
  EventTypeSchema,
  SectionSubmittedPayload,
  SectionSubmittedType,
  SubmissionSubmittedPayload,
  SubmissionErasedType,
  SubmissionSubmittedType
} from "./events/LifecycleEvents.js"
export * from "./events/EventHandlers.js"
export * from "./events/errors.js"
export { type BackoffPolicy, defaultBackoff } from "./events/Backoff.js"
export { defaultDispatcherOptions, Dispatcher, type DispatcherOptions } from "./events/Dispatcher.js"
export { InProcessSignal } from "./events/InProcessSignal.js"
export { BuiltinHandlers, makeBuiltinHandlers } from "./events/BuiltinHandlers.js"

// The organiser side (CONTRACT §12)
export * from "./organiser/catalog/CatalogModel.js"
export * from "./shared/Actor.js"
export * from "./shared/paging.js"
export * from "./organiser/artists/ArtistModel.js"
export * from "./organiser/engagements/EngagementModel.js"
export * from "./organiser/catalog/errors.js"
export * from "./organiser/artists/errors.js"
export * from "./organiser/engagements/errors.js"
export { type Body } from "./rules/bodyChecks.js"
export { maxAdvanceSections } from "./organiser/engagements/engagementInput.js"
export { maxNameLength } from "./organiser/catalog/memberChecks.js"
export * from "./organiser/Organiser.js"
export { makeOrganiser, OrganiserLive } from "./organiser/Organiser.js"
export * from "./organiser/catalog/OrganiserAccess.js"
// Form authoring (CONTRACT §12: definitions, integer revisions, If-Match)
export * from "./organiser/forms/FormModel.js"
export * from "./organiser/forms/errors.js"
export * from "./organiser/forms/FormAuthoring.js"
export { FormAuthoringLive, makeFormAuthoring } from "./organiser/forms/makeFormAuthoring.js"
export { definitionInput, formPatchInput, readOnlyFormMembers, withIds } from "./organiser/forms/formInput.js"
export { etagOf, preconditionOf } from "./organiser/forms/ifMatch.js"
export * from "./organiser/forms/OrganiserForms.js"
export * from "./organiser/catalog/OrganiserCatalog.js"
export * from "./organiser/OrganiserArtists.js"
export type { ArtistStore } from "./organiser/artists/ArtistStore.js"
export type { EngagementStore } from "./organiser/engagements/EngagementStore.js"
export type { CatalogUseCases } from "./organiser/catalog/CatalogUseCases.js"
export type { ArtistUseCases } from "./organiser/artists/ArtistUseCases.js"
export type { EngagementUseCases } from "./organiser/engagements/EngagementUseCases.js"
export * from "./submissionsOut/SubmissionsOutModel.js"
export * from "./submissionsOut/errors.js"
export * from "./submissionsOut/SubmissionsOut.js"
export { defaultRetentionPolicy, makeSubmissionsOut, SubmissionsOutLive, sweepRetention } from "./submissionsOut/makeSubmissionsOut.js"
export * from "./submissionsOut/exportFormat.js"
export * from "./submissionsOut/SubmissionRecords.js"
export * from "./submissionsOut/OutboxAdmin.js"
export * from "./submissionsOut/Retention.js"

// Webhooks (CONTRACT §13)
export * from "./webhooks/WebhookModel.js"
export * from "./webhooks/errors.js"
export * from "./webhooks/WebhookSettings.js"
export * from "./webhooks/Webhooks.js"
export {
  attemptDelivery,
  defaultWebhookEngineOptions,
  deliverBatch,
  deliveryClaimPolicy,
  runWebhookEngine,
  WebhookEngine,
  type WebhookEngineOptions
} from "./webhooks/WebhookEngine.js"
export { forbiddenAddressReason, parseTargetUrl, type TargetUrl, urlProblem } from "./webhooks/addressGuard.js"
export { nextAttemptAt, parseRetryAfter } from "./webhooks/deliverySchedule.js"
export { messageBody, rotationOverlapMs, signedContent, signingSecrets } from "./webhooks/WebhookMessage.js"
export * from "./webhooks/WebhookStore.js"
export * from "./webhooks/WebhookTransport.js"
