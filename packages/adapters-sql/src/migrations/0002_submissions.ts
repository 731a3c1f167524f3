/** Migration 2: submissions, unique claims, the outbox and the rate limiter's hits. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A contact's key is an email lower-cased or a phone's digits: the two never collide.
  yield* sql`CREATE TABLE contacts (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organisation_id text NOT NULL REFERENCES organisations (id),
    key text NOT NULL,
    tags jsonb NOT NULL DEFAULT '[]',
    CONSTRAINT contacts_key UNIQUE (organisation_id, key)
  )`
  yield* sql`CREATE TABLE submissions (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    schema_id text NOT NULL REFERENCES form_schemas (id),
    idempotency_key text NOT NULL,
    status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'submitted')),
    values jsonb NOT NULL DEFAULT '{}',
    auto_save_count integer NOT NULL DEFAULT 0,
    version integer NOT NULL DEFAULT 1,
    event_id text REFERENCES events (id),
    subject_id text,
    tags jsonb NOT NULL DEFAULT '[]',
    contact_id uuid REFERENCES contacts (id),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    submitted_at timestamptz,
    CONSTRAINT submissions_idempotency_key UNIQUE (schema_id, idempotency_key)
  )`
  yield* sql`CREATE INDEX submissions_contact_idx ON submissions (contact_id)`
  // The primary key is the claim: of two racing submits with one value, the second insert conflicts.
  yield* sql`CREATE TABLE unique_claims (
    schema_id text NOT NULL REFERENCES form_schemas (id),
    field_slug text NOT NULL,
    normalized_value text NOT NULL,
    submission_id uuid NOT NULL REFERENCES submissions (id),
    PRIMARY KEY (schema_id, field_slug, normalized_value)
  )`
  yield* sql`CREATE TABLE outbox (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seq bigint GENERATED ALWAYS AS IDENTITY,
    type text NOT NULL,
    payload jsonb NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    available_at timestamptz NOT NULL,
    delivered_at timestamptz,
    dead_at timestamptz,
    last_error text,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX outbox_due_idx ON outbox (available_at, seq) WHERE delivered_at IS NULL AND dead_at IS NULL`
  yield* sql`CREATE INDEX outbox_dead_idx ON outbox (dead_at) WHERE dead_at IS NOT NULL`
  // Times as epoch milliseconds from Effect's Clock; expires_at lets any process prune any key's old hits.
  yield* sql`CREATE TABLE rate_limit_hits (
    id bigserial PRIMARY KEY,
    key text NOT NULL,
    at bigint NOT NULL,
    expires_at bigint NOT NULL
  )`
  yield* sql`CREATE INDEX rate_limit_hits_key_idx ON rate_limit_hits (key, at)`
  yield* sql`CREATE INDEX rate_limit_hits_expires_idx ON rate_limit_hits (expires_at)`
})
