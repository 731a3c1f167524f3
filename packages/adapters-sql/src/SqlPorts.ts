/** Every domain port on PostgreSQL, given a `SqlClient` (a `PgClient` from `PgLive` or `EmbeddedPg`). */
import { Layer } from "effect"
import { SqlFileUploads } from "./files/SqlFileUploads.js"
import { SqlFormSchemas } from "./publicForms/SqlFormSchemas.js"
import { SqlOutbox } from "./events/SqlOutbox.js"
import { SqlRateLimiter } from "./limits/SqlRateLimiter.js"
import { SqlRegistrationData } from "./shifts/SqlRegistrationData.js"
import { SqlShiftPlaces } from "./shifts/SqlShiftPlaces.js"
import { SqlSubmissions } from "./publicForms/SqlSubmissions.js"
import { SqlUniqueValues } from "./publicForms/SqlUniqueValues.js"

// The outbox's lease is the dispatcher's to choose (`Outbox.claim` takes it), so the ports take no options.
const make = () =>
  Layer.mergeAll(
    SqlFormSchemas.layer,
    SqlSubmissions.layer,
    SqlUniqueValues.layer,
    SqlRateLimiter.layer,
    SqlRegistrationData.layer,
    SqlOutbox.layer,
    SqlFileUploads.layer,
    SqlShiftPlaces.layer
  )

export const SqlPorts = {
  /** FormSchemas, Submissions, UniqueValues, RateLimiter, RegistrationData, Outbox, FileUploads and ShiftPlaces. */
  layer: make(),
  make
} as const
