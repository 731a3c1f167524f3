/**
 * The public API of `@forms/adapters-http` (semver): the `HttpApi` definition, the typed client, the HTTP
 * server layer and its configuration, the handlers, and the wire schemas. A name added here is public: add it
 * to the API list of README.md too (test/api.test.ts checks both).
 */

// The API definition and the typed client made from it
export * from "./Api.js"
export * from "./ApiClient.js"

// Serving it: the application layer, its configuration, readiness, client networks
export { docsPath, HttpApp, openApiPath } from "./HttpApp.js"
export * from "./HttpConfig.js"
export * from "./Readiness.js"
export { type ExemptNetworks, noExemptNetworks, parseExemptNetworks } from "./client/exemptNetworks.js"

// On a Node http.Server: requests its parser refuses answered in the envelope; failures named for the logs
export { answerClientError, clientErrorAnswer, type RefusedRequest } from "./clientError.js"
export { describeCause, describeError, type ErrorDescription } from "./describeFailure.js"
export * from "./handlers/PortalHandlers.js"
export * from "./handlers/PublicFormsHandlers.js"
export * from "./handlers/SystemHandlers.js"

// Wire schemas (CONTRACT §1–§7): what the server answers and the client decodes
export {
  ApiConflict,
  type ApiError,
  ApiGone,
  ApiInternal,
  ApiMalformedJson,
  ApiMethodNotAllowed,
  ApiNotFound,
  ApiPayloadTooLarge,
  ApiRateLimited,
  ApiUnavailable,
  ApiUnsupportedMediaType,
  ApiValidationFailed,
  ErrorBody,
  ErrorCode,
  FieldErrorsWire,
  FieldErrorWire
} from "./wire/ErrorEnvelope.js"
export { FieldWire, FormEnvelope, FormSectionWire, FormWire } from "./wire/Form.js"
export {
  PortalSectionEnvelope,
  PortalSectionWire,
  PortalSummaryEnvelope,
  PortalSummarySectionWire,
  PortalSummaryWire,
  PortalValuesBody
} from "./wire/Portal.js"
export * from "./wire/Registration.js"
export {
  CreateDraftBody,
  DraftCreated,
  DraftExisting,
  SubmissionEnvelope,
  SubmissionWire,
  ValuesBody,
  ValuesWire
} from "./wire/Submission.js"

// The pages of CONTRACT §14 and the script they load (the server provides the bundled element)
export { PagesGroup } from "./pages/PagesGroup.js"
export { PagesHandlers } from "./pages/PagesHandlers.js"
export { makeWebAssets, WebAssets, StaticWebAssets, type WebAssetsShape } from "./pages/WebAssets.js"

// The organiser API (CONTRACT §12)
export * from "./admin/AdminGroup.js"
export * from "./admin/AdminHandlers.js"
export { AdminConfig, type AdminConfigShape } from "./admin/AdminLimit.js"
export * from "./admin/OrganiserAuth.js"
// its wire schemas (the domain → wire conversions and the cursor codecs of ./admin/paging.js stay internal)
export {
  AdminTimeSlotWire,
  ArtistBody,
  ArtistDetailEnvelope,
  ArtistDetailWire,
  ArtistEnvelope,
  ArtistList,
  ArtistWire,
  AuditEntryWire,
  AuditList,
  EngagementBody,
  EngagementDetailEnvelope,
  EngagementDetailWire,
  EngagementEnvelope,
  EngagementList,
  EngagementWire,
  EventBody,
  EventEnvelope,
  EventList,
  EventPatchBody,
  EventSectionBody,
  EventSectionEnvelope,
  EventSectionList,
  EventSectionPatchBody,
  EventSectionWire,
  EventWire,
  OrganisationEnvelope,
  OrganisationWire,
  PortalLinkEnvelope,
  TimeSlotBody,
  TimeSlotEnvelope,
  TimeSlotList,
  TimeSlotPatchBody
} from "./wire/Admin.js"
export * from "./admin/SubmissionsOutGroup.js"
export { SubmissionsOutHandlers } from "./admin/SubmissionsOutHandlers.js"
export * from "./wire/SubmissionsOut.js"
export { NodeWebhookTransport, maxAnswerBytes, signWebhook } from "./webhooks/NodeWebhookTransport.js"
export { verifyWebhook, type WebhookVerification } from "./verifyWebhook.js"
