/**
 * `@forms/domain/memory`: every port in memory (one store, one critical section per port method), for
 * embedding without a database and for tests in any framework. Imports no test framework. The sources are in
 * `src/memory/<feature>/`, beside the port they implement by name; `@forms/domain/testing` has the suites and fixtures.
 */
export {
  type ConformanceSeed,
  emptySeed,
  formSchemaFromSeed,
  type SeedEvent,
  seedField,
  type SeedFormSchema,
  type SeedOrganisation
} from "./Seed.js"
export { InMemory, type Ports } from "./InMemory.js"
export {
  type InMemoryClaim,
  type InMemoryData,
  type InMemoryOutboxRow,
  InMemoryStore,
  type InMemoryStoreShape
} from "./InMemoryStore.js"
export { InMemoryFormSchemas } from "./publicForms/InMemoryFormSchemas.js"
export { InMemoryRegistrationData } from "./shifts/InMemoryRegistrationData.js"
export { InMemoryShiftPlaces } from "./shifts/InMemoryShiftPlaces.js"
export { InMemorySubmissions, InMemoryUniqueValues } from "./publicForms/InMemorySubmissions.js"
export { InMemoryRateLimiter } from "./limits/InMemoryRateLimiter.js"
export { InMemoryOutbox } from "./events/InMemoryOutbox.js"
export { InMemoryFileStorage, makeInMemoryFileStorage } from "./files/InMemoryFileStorage.js"
export { InMemoryFileUploads } from "./files/InMemoryFileUploads.js"
export * from "./publicForms/PublicFormsInMemory.js"
export type {
  PortalFixture,
  PortalSeed,
  SeedAdvanceSection,
  SeedEngagement,
  SeedMasterArtist
} from "./portal/portalFixture.js"
export { InMemoryPortal, type PortalPorts } from "./portal/InMemoryPortal.js"
export {
  type InMemoryAdvanceSection,
  type InMemoryArtist,
  type InMemoryEngagement,
  type InMemoryPortalData,
  InMemoryPortalStore,
  type InMemoryPortalStoreShape
} from "./portal/InMemoryPortalStore.js"
export { InMemoryEngagements, InMemoryValueTargets } from "./portal/InMemoryEngagements.js"
export { InMemoryEnrichment, InMemorySchemaCatalog } from "./events/InMemoryEnrichment.js"
export { InMemoryOutboxSignal } from "./events/InMemoryOutboxSignal.js"
export { InMemoryOrganiser, makeInMemoryOrganiser } from "./organiser/InMemoryOrganiser.js"
export { makeOrganiserState, type OrganiserState } from "./organiser/OrganiserState.js"
export { InMemorySubmissionsOut } from "./submissionsOut/InMemorySubmissionsOut.js"
export { InMemoryWebhookStore } from "./webhooks/InMemoryWebhookStore.js"
export type { InMemoryDelivery, InMemoryEndpoint, InMemoryWebhookState } from "./webhooks/InMemoryWebhookState.js"
export { InMemoryWebhookTransport, type InMemoryTransportState, makeTransportState } from "./webhooks/InMemoryWebhookTransport.js"
export { InMemoryOrganiserForms, makeInMemoryOrganiserForms } from "./organiser/forms/InMemoryOrganiserForms.js"
export { InMemoryMessageRows } from "./messages/InMemoryMessageRows.js"
export { InMemoryMessageLog } from "./messages/InMemoryMessageLog.js"
export { InMemoryMailer, type InMemoryMailerState, makeMailerState } from "./messages/InMemoryMailer.js"
export type { InMemoryMessageRow } from "./InMemoryStore.js"
