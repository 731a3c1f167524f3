/**
 * `@forms/domain/memory`: every port in memory (one store, one critical section per port method), for
 * embedding without a database and for tests in any framework. Imports no test framework. The sources live
 * beside their conformance suites in `src/testing/`; `@forms/domain/testing` has the suites and fixtures.
 */
export * from "../testing/ConformanceSeed.js"
export * from "../testing/InMemory.js"
export * from "../testing/InMemoryCatalog.js"
export * from "../testing/InMemoryOutbox.js"
export * from "../testing/InMemoryRateLimiter.js"
export * from "../testing/InMemoryStore.js"
export * from "../testing/InMemorySubmissions.js"
export * from "../testing/PublicFormsInMemory.js"
export type {
  PortalFixture,
  PortalSeed,
  SeedAdvanceSection,
  SeedEngagement,
  SeedMasterArtist
} from "../testing/portal/portalFixture.js"
export * from "../testing/portal/InMemoryPortalStore.js"
export * from "../testing/portal/InMemoryEngagements.js"
export * from "../testing/portal/InMemoryPortal.js"
export * from "../testing/events/InMemoryEnrichment.js"
export * from "../testing/events/InMemoryOutboxSignal.js"
