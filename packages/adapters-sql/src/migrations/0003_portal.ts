/** Migration 3: master artists, engagements (portal tokens as SHA-256 hashes) and their advance sections. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE master_artists (
    id text PRIMARY KEY,
    organisation_id text NOT NULL REFERENCES organisations (id) DEFERRABLE INITIALLY DEFERRED,
    name text NOT NULL,
    deleted_at timestamptz,
    profile jsonb NOT NULL DEFAULT '{}'
  )`
  // portal_token_hash: lower-case hex SHA-256 of the token; the token itself is never stored.
  // portal_token_issued_at is set when the CLI issues a link, so reloading a fixture keeps that link.
  yield* sql`CREATE TABLE engagements (
    id text PRIMARY KEY,
    organisation_id text NOT NULL REFERENCES organisations (id) DEFERRABLE INITIALLY DEFERRED,
    event_id text NOT NULL REFERENCES events (id) DEFERRABLE INITIALLY DEFERRED,
    master_artist_id text NOT NULL REFERENCES master_artists (id) DEFERRABLE INITIALLY DEFERRED,
    portal_token_hash text,
    portal_token_issued_at timestamptz,
    advance jsonb NOT NULL DEFAULT '{}',
    CONSTRAINT engagements_portal_token_hash_key UNIQUE (portal_token_hash) DEFERRABLE INITIALLY DEFERRED
  )`
  yield* sql`CREATE TABLE advance_sections (
    id text PRIMARY KEY,
    engagement_id text NOT NULL REFERENCES engagements (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    name text NOT NULL,
    position double precision NOT NULL DEFAULT 0,
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'submitted')),
    submitted_at timestamptz
  )`
  yield* sql`CREATE INDEX advance_sections_engagement_idx ON advance_sections (engagement_id)`
})
