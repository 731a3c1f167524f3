/**
 * `@forms/domain/testing`: the port conformance suites (registered with `@effect/vitest`, an optional peer
 * dependency) and the fixtures they run on. The in-memory adapters are in `@forms/domain/memory`.
 */
export type { ConformanceSeed } from "./Seed.js"
export type { Ports } from "./InMemory.js"
export type { PortalPorts } from "./portal/InMemoryPortal.js"
export * from "./conformanceSeed.js"
export * from "./portConformance.js"
export * from "./portal/portalFixture.js"
export * from "./portal/engagementsConformance.js"
export * from "./portal/writeSection.js"
export * from "./portal/valueTargetsConformance.js"
export * from "./portal/portalConformance.js"
export * from "./events/enrichmentConformance.js"
export * from "./events/outboxSignalConformance.js"
export * from "./events/slowDispatchers.js"
export * from "./organiser/organiserConformance.js"
export * from "./organiser/slotPlacesConformance.js"
export { SlotPlaceFixture } from "./organiser/SlotPlaceFixture.js"
export * from "./submissionsOut/SubmissionsOutFixture.js"
export * from "./submissionsOut/submissionsOutConformance.js"
export * from "./webhooks/webhookStoreConformance.js"
export * from "./organiser/formsConformance.js"
