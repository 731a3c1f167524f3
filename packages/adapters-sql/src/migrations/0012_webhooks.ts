/**
 * Migration 12: webhook endpoints and their deliveries (CONTRACT §13). A delivery is recorded beside its
 * outbox event when the event is handled (one per subscribed endpoint, in that same statement), or by a
 * test message / a replay; `attempts` lists every attempt (never a body or a secret).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // previous_secret signs too for 24 h after secret_rotated_at.
  yield* sql`CREATE TABLE webhook_endpoints (
    id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
    organisation_id text NOT NULL REFERENCES organisations (id) DEFERRABLE INITIALLY DEFERRED,
    url text NOT NULL,
    event_types text[] NOT NULL,
    description text,
    enabled boolean NOT NULL DEFAULT true,
    disabled_reason text,
    secret text NOT NULL,
    previous_secret text,
    secret_rotated_at timestamptz,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX webhook_endpoints_page_idx ON webhook_endpoints (organisation_id, created_at DESC, (id COLLATE "C") DESC)`
  // attempt_count: attempts claimed (a claim counts one); round_start: attempt_count when the current round
  // began (a retry or replay starts a new one); claimed_until: the lease of an outstanding attempt.
  yield* sql`CREATE TABLE webhook_deliveries (
    id text PRIMARY KEY DEFAULT gen_random_uuid()::text,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id uuid NOT NULL,
    event_type text NOT NULL,
    organisation_id text NOT NULL,
    form_id text,
    test_payload jsonb,
    event_at timestamptz NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts jsonb NOT NULL DEFAULT '[]',
    attempt_count integer NOT NULL DEFAULT 0,
    round_start integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    claimed_at timestamptz,
    claimed_until timestamptz,
    created_at timestamptz NOT NULL,
    CONSTRAINT webhook_deliveries_event UNIQUE (endpoint_id, event_id)
  )`
  yield* sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at, seq) WHERE status = 'pending'`
  yield* sql`CREATE INDEX webhook_deliveries_page_idx ON webhook_deliveries (endpoint_id, created_at DESC, (id COLLATE "C") DESC)`
  // Replays read events by time; another change (retention) may create the same index first.
  yield* sql`CREATE INDEX IF NOT EXISTS outbox_created_idx ON outbox (created_at)`
})
