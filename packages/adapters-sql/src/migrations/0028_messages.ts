/**
 * Migration 28: messages (email). A form's `messages` member (null: none), and the messages its submits cause,
 * recorded in the submit's transaction: `held` while no mail server is configured, `pending` until the sender
 * has sent them (`sent`) or given up (`failed`). `due_at` is when a pending message is next due: at once, after a
 * retry's delay, or when a sender's lease on it lapses. A submission's messages go with it (erasure, retention).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE form_schemas ADD COLUMN messages jsonb`
  yield* sql`CREATE TABLE messages (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seq bigint GENERATED ALWAYS AS IDENTITY,
    organisation_id text NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
    submission_id uuid REFERENCES submissions (id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('confirmation', 'notification', 'reminder', 'resume_link', 'portal_link',
      'section_reminder', 'promotion')),
    to_address text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    status text NOT NULL CHECK (status IN ('held', 'pending', 'sent', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    last_error text,
    due_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL,
    sent_at timestamptz
  )`
  yield* sql`CREATE INDEX messages_due_idx ON messages (due_at, seq) WHERE status = 'pending'`
  yield* sql`CREATE INDEX messages_submission_idx ON messages (submission_id) WHERE submission_id IS NOT NULL`
  yield* sql`CREATE INDEX messages_organisation_idx ON messages (organisation_id, created_at DESC, id)`
})
