/**
 * The public API of `@forms/adapters-sql` (semver): PostgreSQL adapters of the domain's ports, migrations,
 * the fixture loader, token administration and an embedded PostgreSQL (PGlite). A name added here is public:
 * add it to the API list of README.md too (examples/test/api.test.ts checks both).
 */

// Connections: a PostgreSQL pool, or PostgreSQL embedded in the process
export * from "./connection/EmbeddedPg.js"
export { PgLive, type PgLiveOptions } from "./connection/PgLive.js"
export type { PgListenerOptions } from "./connection/PgListener.js"

// Schema
export { migrate, Migrations } from "./migrations/Migrations.js"

// Every port at once, and each port's layer
export * from "./SqlPorts.js"
export * from "./SqlPortalPorts.js"
export { SqlFormSchemas } from "./publicForms/SqlFormSchemas.js"
export { SqlSubmissions } from "./publicForms/SqlSubmissions.js"
export { SqlUniqueValues } from "./publicForms/SqlUniqueValues.js"
export { SqlRateLimiter } from "./limits/SqlRateLimiter.js"
export { SqlRegistrationData } from "./shifts/SqlRegistrationData.js"
export { SqlShiftPlaces } from "./shifts/SqlShiftPlaces.js"
export { SqlOutbox } from "./events/SqlOutbox.js"
export { SqlEngagements } from "./portal/SqlEngagements.js"
export { SqlValueTargets } from "./portal/SqlValueTargets.js"
export { SqlEnrichment } from "./events/SqlEnrichment.js"
export { SqlSchemaCatalog } from "./forms/SqlSchemaCatalog.js"
export { SqlOutboxSignal, type SqlOutboxSignalOptions } from "./events/SqlOutboxSignal.js"
export { FormSchemaCache, type FormSchemaCacheOptions } from "./forms/FormSchemaCache.js"
export { SqlOrganiserAccess } from "./organiser/catalog/SqlOrganiserAccess.js"
export { SqlOrganiserCatalog } from "./organiser/catalog/SqlOrganiserCatalog.js"
export { SqlOrganiserArtists } from "./organiser/artists/SqlOrganiserArtists.js"
export { SqlSubmissionRecords } from "./submissionsOut/SqlSubmissionRecords.js"
export { SqlOutboxAdmin } from "./submissionsOut/SqlOutboxAdmin.js"
export { SqlRetention } from "./submissionsOut/SqlRetention.js"
export { SqlOrganiserForms } from "./organiser/forms/SqlOrganiserForms.js"
export { SqlFileUploads } from "./files/SqlFileUploads.js"
export { FolderFileStorage } from "./files/FolderFileStorage.js"

// Fixtures (CONTRACT §10) and tokens
export type { DecodedFixture, Fixture } from "./fixture/decodeFixture.js"
export { FixtureRejected, type FixtureSummary, loadFixture } from "./fixture/loadFixture.js"
export { type RefusedPattern, reportRefusedPatterns } from "./fixture/storedPatterns.js"
export { reportUnlistedTypes, type UnlistedTypes } from "./fixture/storedTypes.js"
export { RecordNotFound, setPortalToken, TokenRejected } from "./fixture/tokenAdmin.js"
export { SqlWebhookStore } from "./webhooks/SqlWebhookStore.js"

// Operations: the gauges' readings, restoring a copy of the embedded database (copies come from `EmbeddedDump`)
export {
  type ConnectionCount,
  type MessageStatusLabel,
  messageStatuses,
  type OperationsReading,
  readOperationsGauges
} from "./operations/readOperationsGauges.js"
export { isEmptyFolder, restoreEmbedded } from "./operations/restoreEmbedded.js"
export { SqlMessageRows } from "./messages/SqlMessageRows.js"
export { SqlMessageLog } from "./messages/SqlMessageLog.js"
export { sqlTokenKey } from "./messages/SqlTokenKey.js"
export { SqlReminders } from "./reminders/SqlReminders.js"
