/**
 * The submit of a submission that takes no places, as one statement with no transaction around it (issue 23):
 * the conditional update, the unique claims, the outbox rows with their NOTIFY and the messages the submit causes. One round trip instead of
 * four (BEGIN, update, claims and events, COMMIT), and no connection held to itself, so it is pipelined like
 * any other statement.
 *
 * The claims and the events are inserted only for the row the update returned (they select from it), so a
 * version, status or revision that moved inserts nothing and answers no row, as the update alone did. A claim
 * that another submission holds makes `forms_claims_lost` (migration 16) fail the statement with SQLSTATE 23505
 * on `unique_claims_lost`, which undoes the update, the claims and the events together (a NOTIFY of a failed
 * statement is never sent). The port then runs the submit as a transaction, which answers which values are taken.
 */
import type { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import type { SubmitCommand } from "@forms/domain"
import type { DigestedClaim } from "./claimDigest.js"
import { eventsJson, outboxChannel } from "../events/OutboxRecord.js"
import { insertMessages } from "../messages/messageRecord.js"

/** The constraint name of the error that `forms_claims_lost` raises. */
export const lostClaimsConstraint = "unique_claims_lost"

/** `update`: the submit's conditional `UPDATE … RETURNING` of the submission (SqlSubmissions' `submitUpdate`). */
export const submitStatement = (
  sql: SqlClient.SqlClient,
  update: Fragment,
  command: SubmitCommand,
  claims: ReadonlyArray<DigestedClaim>,
  at: Date
) =>
  sql`
    WITH updated AS (${update}), claimed AS (
      INSERT INTO unique_claims (schema_id, field_slug, value_digest, submission_id)
      SELECT ${command.schema_id}, c.slug, decode(c.digest, 'hex'), ${command.id}::uuid
      FROM updated, unnest(${claims.map((c) => c.slug)}::text[], ${claims.map((c) => c.digest)}::text[])
        WITH ORDINALITY AS c (slug, digest, n)
      ORDER BY c.n
      ON CONFLICT DO NOTHING
      RETURNING 1
    ), recorded AS (
      INSERT INTO outbox (type, payload, available_at, created_at)
      SELECT e.event->>'type', e.event->'payload', ${at}::timestamptz, ${at}::timestamptz
      FROM updated, jsonb_array_elements(${eventsJson(command.events)}::jsonb) WITH ORDINALITY AS e (event, n)
      ORDER BY e.n
    ), messaged AS (${insertMessages(sql, command, at, true)})
    SELECT updated.*, forms_claims_lost(${claims.length}::int - (SELECT count(*)::int FROM claimed)) AS lost,
      (SELECT pg_notify(${outboxChannel}, current_schema()) WHERE ${command.events.length}::int > 0) AS notified
    FROM updated`
