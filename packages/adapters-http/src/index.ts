/**
 * The public API of `@forms/adapters-http` (semver): what an embedder uses. The `HttpApi` definition and each
 * feature's group and handlers, the typed client, the HTTP server layer and its configuration, the error envelope.
 * The wire schemas of the routes stay internal (the typed client and `/openapi.json` carry them), so a new route
 * changes nothing here. A name added here is public: add it to the API list of README.md too
 * (examples/test/api.test.ts checks both).
 */

// The API definition and the typed client made from it
export { Api } from "./Api.js"
export * from "./ApiClient.js"
// the two answers of a draft create, told apart by class (201 a new draft, 200 the existing one)
export { DraftCreated, DraftExisting } from "./publicForms/wire.js"

// Serving it: the application layer, its configuration, client networks
export { docsPath, HttpApp, openApiPath } from "./HttpApp.js"
export * from "./HttpConfig.js"
export { type ExemptNetworks, noExemptNetworks, parseExemptNetworks } from "./http/exemptNetworks.js"

// On a Node http.Server: requests its parser refuses answered in the envelope; failures named for the logs
export { answerClientError, type RefusedRequest } from "./http/clientError.js"
export { answerUntilServed } from "./http/notServingYet.js"
export { describeCause, describeError, type ErrorDescription } from "./http/describeFailure.js"

// The error envelope: what every error answers and the client decodes
export {
  ApiConflict, type ApiError, ApiGone, ApiInternal, ApiMalformedJson, ApiMethodNotAllowed, ApiNotFound,
  ApiPayloadTooLarge, ApiRateLimited, ApiUnavailable, ApiUnsupportedMediaType, ApiValidationFailed, ErrorBody,
  ErrorCode, FieldErrorsWire, FieldErrorWire
} from "./http/ErrorEnvelope.js"

// Public forms
export { PublicFormsGroup } from "./publicForms/PublicFormsGroup.js"
export { PublicFormsHandlers } from "./publicForms/PublicFormsHandlers.js"

// Uploads of file fields
export { FilesAdminGroup } from "./files/FilesAdminGroup.js"
export { FilesAdminHandlers } from "./files/FilesAdminHandlers.js"
export { MessagesGroup } from "./messages/MessagesGroup.js"
export { MessagesHandlers } from "./messages/MessagesHandlers.js"
export { FilesGroup } from "./files/FilesGroup.js"
export { FilesHandlers } from "./files/FilesHandlers.js"
export { FileCreated } from "./files/wire.js"

// The artist portal
export { ManageGroup } from "./shifts/ManageGroup.js"
export { ManageHandlers } from "./shifts/ManageHandlers.js"
export { PortalGroup } from "./portal/PortalGroup.js"
export { PortalHandlers } from "./portal/PortalHandlers.js"

// System: liveness and readiness
export { Readiness } from "./system/Readiness.js"
export { SystemGroup } from "./system/SystemGroup.js"
export { SystemHandlers } from "./system/SystemHandlers.js"

// The pages and the script they load (the server provides the bundled element)
export { PagesGroup } from "./pages/PagesGroup.js"
export { PagesHandlers } from "./pages/PagesHandlers.js"
export { makeWebAssets, StaticWebAssets, WebAssets, type WebAssetsShape } from "./pages/WebAssets.js"

// The organiser API: its key check, its limit's configuration, and one group per feature
export { AdminConfig, type AdminConfigShape } from "./organiser/AdminConfig.js"
export { CurrentActor, OrganiserAuth, OrganiserAuthLive } from "./organiser/OrganiserAuth.js"
export { CatalogGroup } from "./organiser/catalog/CatalogGroup.js"
export { CatalogHandlers } from "./organiser/catalog/CatalogHandlers.js"
export { ArtistsGroup } from "./organiser/artists/ArtistsGroup.js"
export { ArtistsHandlers } from "./organiser/artists/ArtistsHandlers.js"
export { EngagementsGroup } from "./organiser/engagements/EngagementsGroup.js"
export { EngagementsHandlers } from "./organiser/engagements/EngagementsHandlers.js"
export { FormsGroup } from "./organiser/forms/FormsGroup.js"
export { FormsHandlers } from "./organiser/forms/FormsHandlers.js"

// Submissions out: the organiser's reads, export and erasure
export { SubmissionsOutGroup } from "./submissionsOut/SubmissionsOutGroup.js"
export { SubmissionsOutHandlers } from "./submissionsOut/SubmissionsOutHandlers.js"

// Webhooks: the organiser's endpoints, the transport that delivers, and the receiver's check
export { WebhooksGroup } from "./webhooks/WebhooksGroup.js"
export { WebhooksHandlers } from "./webhooks/WebhooksHandlers.js"
export { maxAnswerBytes, NodeWebhookTransport, signWebhook } from "./webhooks/NodeWebhookTransport.js"
export { verifyWebhook, type WebhookVerification } from "./webhooks/verifyWebhook.js"

// Operations: the request histogram (off unless set) and the request's span
export { RequestMetrics, RequestMetricsLive, type RequestMetricsShape } from "./operations/RequestMetrics.js"
export { makeSmtpMailer, outcomeOfError, SmtpMailer, type SmtpMailerOptions } from "./messages/SmtpMailer.js"
export { AesTokenCipher, newTokenKey, openWith, sealWith, tokenKeyOf } from "./messages/AesTokenCipher.js"
