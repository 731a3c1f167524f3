/**
 * `@forms/domain/memory`: every port in memory (one store, one critical section per port method), for
 * embedding without a database and for tests in any framework. Imports no test framework. The sources live
 * beside their conformance suites in `src/testing/`; `@forms/domain/testing` has the suites and fixtures.
 */
export {
  type ConformanceSeed,
  emptySeed,
  formSchemaFromSeed,
  type SeedEvent,
  seedField,
  type SeedFormSchema,
  type SeedOrganisation
} from "../testing/Seed.js"
export { InMemory, type Ports } from "../testing/InMemory.js"
export {
  type InMemoryClaim,
  type InMemoryData,
  type InMemoryOutboxRow,
  InMemoryStore,
  type InMemoryStoreShape
} from "../testing/InMemoryStore.js"
export { InMemoryFormSchemas, InMemoryRegistrationData } from "../testing/InMemoryCatalog.js"
export { InMemorySubmissions, InMemoryUniqueValues } from "../testing/InMemorySubmissions.js"
export { InMemoryRateLimiter } from "../testing/InMemoryRateLimiter.js"
export { InMemoryOutbox } from "../testing/InMemoryOutbox.js"
export * from "../testing/PublicFormsInMemory.js"
export type {
  PortalFixture,
  PortalSeed,
  SeedAdvanceSection,
  SeedEngagement,
  SeedMasterArtist
} from "../testing/portal/portalFixture.js"
export { InMemoryPortal, type PortalPorts } from "../testing/portal/InMemoryPortal.js"
export {
  type InMemoryAdvanceSection,
  type InMemoryArtist,
  type InMemoryEngagement,
  type InMemoryPortalData,
  InMemoryPortalStore,
  type InMemoryPortalStoreShape
} from "../testing/portal/InMemoryPortalStore.js"
export { InMemoryEngagements, InMemoryValueTargets } from "../testing/portal/InMemoryEngagements.js"
export { InMemoryEnrichment, InMemorySchemaCatalog } from "../testing/events/InMemoryEnrichment.js"
export { InMemoryOutboxSignal } from "../testing/events/InMemoryOutboxSignal.js"
export { InMemoryOrganiser, makeInMemoryOrganiser, makeOrganiserState, type OrganiserState } from "../testing/organiser/InMemoryOrganiser.js"
export { InMemorySubmissionsOut } from "../testing/submissionsOut/InMemorySubmissionsOut.js"
export { InMemoryWebhookStore } from "../testing/webhooks/InMemoryWebhookStore.js"
export type { InMemoryDelivery, InMemoryEndpoint, InMemoryWebhookState } from "../testing/webhooks/InMemoryWebhookState.js"
export { InMemoryWebhookTransport, type InMemoryTransportState, makeTransportState } from "../testing/webhooks/InMemoryWebhookTransport.js"
export { InMemoryOrganiserForms, makeInMemoryOrganiserForms } from "../testing/organiser/InMemoryOrganiserForms.js"
