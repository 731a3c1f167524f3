/**
 * The public API of `@forms/domain` (semver), by feature folder: what an embedder uses. The use cases and their
 * layers, configuration, the ports (to bring one's own adapter) with the records they exchange (each a Schema),
 * every domain error, the rule compiler, the event handlers and dispatcher, the webhook engine and the signature's
 * content. Helpers only this repository's adapters share are in `./internal.ts` (`@forms/domain/internal`, not
 * covered by semver); in-memory ports in `@forms/domain/memory`. A name added here is public: add it to the API
 * list of README.md too (examples/test/api.test.ts checks both).
 */

// Configuration
export * from "./FormsConfig.js"

// Shared primitives: who acts, keyset pages, the one failure of every port
export * from "./shared/Actor.js"
export * from "./shared/errors.js"
export * from "./shared/paging.js"

// forms: the form model every feature reads
export * from "./forms/errors.js"
export * from "./forms/FormField.js"
export * from "./forms/FormSchema.js"
export * from "./forms/Values.js"

// languages: a form's languages and translations, the language of an answer (§19)
export * from "./languages/index.js"

// rules: the rule compiler (CONTRACT §4), the size limits of values (§8), the errors of rules and bodies
export { compileRules } from "./rules/compileRules.js"
export * from "./rules/errors.js"
export { FieldError, FieldErrors, RuleName } from "./rules/FieldErrors.js"
export type { SlotChoice } from "./rules/SlotChoice.js"
export { checkSizeLimits, defaultSizeLimits, type SizeLimits } from "./rules/sizeLimits.js"
export type { CompiledRules, UniqueCandidate, ValidationResult, Validator } from "./rules/Validator.js"
export type { Body } from "./rules/bodyChecks.js"

// files: uploads of file fields, their rows and storage ports, the Files use cases
export * from "./files/errors.js"
export * from "./files/Files.js"
export { FilesLive } from "./files/makeFiles.js"
export * from "./files/FileStorage.js"
export * from "./files/FileUploads.js"
export type { Measured, OpenedBody, UploadBody } from "./files/UploadBody.js"
export * from "./files/UploadedFile.js"

// limits: the client limits (§8), their answers and the RateLimiter port
export * from "./limits/errors.js"
export { type Limited, type RefusalReason, Refused } from "./limits/Limited.js"
export { Client, clientAt } from "./limits/LimitPolicy.js"
export * from "./limits/RateLimiter.js"
export { RateLimitState } from "./limits/RateLimitState.js"

// shifts: time slots and their places (§15), the RegistrationData port
export * from "./shifts/RegistrationData.js"
export { TimeSlot } from "./shifts/TimeSlot.js"
export * from "./shifts/errors.js"
export * from "./shifts/ShiftPlaces.js"
export * from "./shifts/VolunteerShifts.js"
export { makeVolunteerShifts, VolunteerShiftsLive } from "./shifts/makeVolunteerShifts.js"

// publicForms: the public-form use cases (§3), the submission, the FormSchemas/Submissions/UniqueValues ports
export * from "./publicForms/errors.js"
export * from "./publicForms/FormSchemas.js"
export { makePublicForms, PublicFormsLive } from "./publicForms/makePublicForms.js"
export * from "./publicForms/PublicForms.js"
export * from "./publicForms/RegistrationSection.js"
export * from "./publicForms/Submission.js"
export * from "./publicForms/Submissions.js"
export * from "./publicForms/UniqueValues.js"

// portal: the artist portal use cases (§5), the Engagements/ValueTargets ports
export * from "./portal/ArtistPortal.js"
export {
  AdvanceSection,
  AdvanceSectionStatus,
  Engagement,
  MasterArtist,
  PortalContext
} from "./portal/Engagement.js"
export * from "./portal/Engagements.js"
export * from "./portal/errors.js"
export { isLockedAt, isOverdueAt, SectionSchedule } from "./portal/SectionLock.js"
export { ArtistPortalLive, makeArtistPortal } from "./portal/makeArtistPortal.js"
export * from "./portal/ValueTargets.js"

// events: lifecycle events (§6), their handlers and the dispatcher, the Outbox/OutboxSignal/Enrichment ports
export { type BackoffPolicy, defaultBackoff } from "./events/Backoff.js"
export { BuiltinHandlers, makeBuiltinHandlers } from "./events/BuiltinHandlers.js"
export { defaultDispatcherOptions, Dispatcher, type DispatcherOptions } from "./events/Dispatcher.js"
export * from "./events/Enrichment.js"
export * from "./events/errors.js"
export * from "./events/EventHandlers.js"
export { InProcessSignal } from "./events/InProcessSignal.js"
export {
  decodeSectionSubmitted,
  decodeSubmissionSubmitted,
  PlaceCancelledType,
  PlacePromotedType,
  SectionLockedType,
  SectionLockPayload,
  SectionReopenedType,
  SectionSubmittedPayload,
  SectionSubmittedType,
  SubmissionErasedType,
  SubmissionSubmittedPayload,
  SubmissionSubmittedType
} from "./events/LifecycleEvents.js"
export * from "./events/Outbox.js"
export * from "./events/OutboxSignal.js"
export * from "./events/SchemaCatalog.js"

// organiser: the Organiser service (§12) over the catalog, artists and engagements, and their ports
export * from "./organiser/Organiser.js"
export * from "./organiser/OrganiserArtists.js"
export * from "./organiser/catalog/CatalogModel.js"
export type { CatalogUseCases } from "./organiser/catalog/CatalogUseCases.js"
export * from "./organiser/catalog/errors.js"
export { maxNameLength } from "./organiser/catalog/memberChecks.js"
export * from "./organiser/catalog/OrganiserAccess.js"
export * from "./organiser/catalog/OrganiserCatalog.js"
export { AdminArtist, ArtistDetail, artistKeyOf, type ArtistStore, type ArtistUseCases } from "./organiser/artists/Artists.js"
export * from "./organiser/artists/errors.js"
export { maxAdvanceSections } from "./organiser/engagements/engagementInput.js"
export * from "./organiser/engagements/EngagementModel.js"
export type { EngagementStore } from "./organiser/engagements/EngagementStore.js"
export type { EngagementUseCases } from "./organiser/engagements/EngagementUseCases.js"
export * from "./organiser/engagements/errors.js"

// organiser/forms: form authoring (definitions, integer revisions, If-Match), the one definition check
export {
  checkDefinition,
  type DefinitionParts,
  type DefinitionProblem,
  describeProblems
} from "./organiser/forms/checkDefinition.js"
export { checkFieldDefinitions } from "./organiser/forms/checkFields.js"
export * from "./organiser/forms/errors.js"
export * from "./organiser/forms/FormAuthoring.js"
export * from "./organiser/forms/FormModel.js"
export { etagOf } from "./organiser/forms/ifMatch.js"
export { FormAuthoringLive, makeFormAuthoring } from "./organiser/forms/makeFormAuthoring.js"
export * from "./organiser/forms/OrganiserForms.js"

// submissionsOut: the organiser's reads, export, erasure, contacts, outbox admin and retention
export * from "./submissionsOut/errors.js"
export { csvHeader, csvRow } from "./submissionsOut/exportFormat.js"
export {
  defaultRetentionPolicy,
  makeSubmissionsOut,
  SubmissionsOutLive,
  sweepRetention
} from "./submissionsOut/makeSubmissionsOut.js"
export * from "./submissionsOut/OutboxAdmin.js"
export * from "./submissionsOut/Retention.js"
export * from "./submissionsOut/SubmissionRecords.js"
export * from "./submissionsOut/SubmissionsOut.js"
export * from "./submissionsOut/SubmissionsOutModel.js"

// webhooks: endpoints and deliveries (§13), the delivery engine, the signed content, the WebhookStore/Transport ports
export * from "./webhooks/errors.js"
export { defaultWebhookEngineOptions, WebhookEngine, type WebhookEngineOptions } from "./webhooks/WebhookEngine.js"
export { rotationOverlapMs, signedContent } from "./webhooks/WebhookMessage.js"
export * from "./webhooks/WebhookModel.js"
export * from "./webhooks/Webhooks.js"
export * from "./webhooks/WebhookSettings.js"
export * from "./webhooks/WebhookStore.js"
export * from "./webhooks/WebhookTransport.js"

// messages: what a form asks to send (confirmation, notify, reminders), composing and recording them, the Mailer/MessageRows ports, the sender
export * from "./messages/index.js"

// reminders: shift reminders scheduled at submit, section reminders before due dates, promotion and portal-link texts
export * from "./reminders/index.js"
