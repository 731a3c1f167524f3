/**
 * Migration 29: messages for organisers and links in messages. `round_start` is `attempts` when an organiser's
 * retry began a new round (the retry schedule counts from it); `engagement_id` names the engagement of a portal
 * message. A message with a link (a resume link) keeps its body with a marker where the link goes, and beside it
 * `link_kind`, what the link leads to (`link_schema_id`, the form whose page it opens) and the token,
 * encrypted (AES-256-GCM) under TOKEN_KEY: the URL is rendered at each send attempt and never stored.
 * `token_keys` holds the one key generated when TOKEN_KEY is unset, shared by every process on the database.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE messages
    ADD COLUMN round_start integer NOT NULL DEFAULT 0,
    ADD COLUMN engagement_id text REFERENCES engagements (id) ON DELETE CASCADE,
    ADD COLUMN link_kind text CHECK (link_kind IN ('resume', 'manage', 'portal')),
    ADD COLUMN link_schema_id text,
    ADD COLUMN link_token text`
  yield* sql`CREATE INDEX messages_engagement_idx ON messages (engagement_id) WHERE engagement_id IS NOT NULL`
  yield* sql`CREATE TABLE token_keys (
    id smallint PRIMARY KEY CHECK (id = 1),
    key text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`
})
