/** The numbered, forward-only migrations of the forms database, and the layer that applies them. */
import { NodeServices } from "@effect/platform-node"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import forms from "./0001_forms.js"
import manageLinks from "./0033_manage_links.js"
import submissions from "./0002_submissions.js"
import portal from "./0003_portal.js"
import enrichment from "./0004_enrichment.js"
import schemaChanges from "./0005_schema_changes.js"
import uniqueDigest from "./0006_unique_digest.js"
import outboxAttempts from "./0008_outbox_attempts.js"
import organiser from "./0009_organiser.js"
import formAuthoring from "./0010_form_authoring.js"
import submissionsOut from "./0011_submissions_out.js"
import webhooks from "./0012_webhooks.js"
import slotPlaces from "./0013_slot_places.js"
import enrichmentBatches from "./0014_enrichment_batches.js"
import rateLimitWindows from "./0015_rate_limit_windows.js"
import claimsLost from "./0016_claims_lost.js"
import advanceSource from "./0017_advance_source.js"
import webhookReplaySince from "./0018_webhook_replay_since.js"
import webhookClaimCaps from "./0020_webhook_claim_caps.js"
import formLogic from "./0023_form_logic.js"
import sectionLocks from "./0024_section_locks.js"
import shiftsZonesWaitlists from "./0025_shifts_zones_waitlists.js"
import uploads from "./0026_uploads.js"
import messages from "./0028_messages.js"
import messageLinks from "./0029_message_links.js"
import languages from "./0027_languages.js"
import submissionLanguage from "./0030_submission_language.js"
import shiftReminders from "./0031_shift_reminders.js"
import portalMessages from "./0032_portal_messages.js"
import rateLimitAmounts from "./0035_rate_limit_amounts.js"

const table = "forms_migrations"

/**
 * Add a migration with the next number; never edit one that has shipped. 0007 was never used and must never
 * be: the migrator skips a number below the latest one a database has applied.
 */
const migrations = {
  "0001_forms": forms,
  "0002_submissions": submissions,
  "0003_portal": portal,
  "0004_enrichment": enrichment,
  "0005_schema_changes": schemaChanges,
  "0006_unique_digest": uniqueDigest,
  "0008_outbox_attempts": outboxAttempts,
  "0009_organiser": organiser,
  "0010_form_authoring": formAuthoring,
  "0011_submissions_out": submissionsOut,
  "0012_webhooks": webhooks,
  "0013_slot_places": slotPlaces,
  "0014_enrichment_batches": enrichmentBatches,
  "0015_rate_limit_windows": rateLimitWindows,
  "0016_claims_lost": claimsLost,
  "0017_advance_source": advanceSource,
  "0018_webhook_replay_since": webhookReplaySince,
  "0020_webhook_claim_caps": webhookClaimCaps,
  "0023_form_logic": formLogic,
  "0024_section_locks": sectionLocks,
  "0025_shifts_zones_waitlists": shiftsZonesWaitlists,
  "0026_uploads": uploads,
  "0028_messages": messages,
  "0027_languages": languages,
  "0030_submission_language": submissionLanguage,
  "0029_message_links": messageLinks,
  "0031_shift_reminders": shiftReminders,
  "0032_portal_messages": portalMessages,
  "0033_manage_links": manageLinks,
  "0035_rate_limit_amounts": rateLimitAmounts
}
const loader = PgMigrator.fromRecord(migrations)

// The migrator only needs the Node services for schema dumps, which are not asked for.
const run = PgMigrator.run({ loader, table }).pipe(Effect.provide(NodeServices.layer))

export const Migrations = {
  /** Every migration by its `NNNN_name` (a test builds a database as it stood before one of them). */
  migrations,
  loader,
  table,
  /** Applies the pending migrations in one transaction (serialised across processes by a table lock). */
  run,
  /** Builds by applying the pending migrations; provides nothing. */
  layer: Layer.effectDiscard(run)
} as const

/** The migrations layer: provide it with a `PgClient`. */
export const migrate = Migrations.layer
