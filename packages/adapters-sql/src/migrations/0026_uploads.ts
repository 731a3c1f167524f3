/**
 * Migration 26: upload rows of file fields. A row is `pending` while its content streams to storage and
 * `stored` once whole; the content's storage key is the row's id. Erasing a submission keeps its rows with no
 * submission (`ON DELETE SET NULL`): their contents are deleted after the erasure commits, and the retention
 * sweep deletes whatever is left, content first, so no content outlives its row for long.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE uploads (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    submission_id uuid REFERENCES submissions (id) ON DELETE SET NULL,
    field_slug text NOT NULL,
    name text NOT NULL,
    size bigint NOT NULL DEFAULT 0,
    content_type text NOT NULL DEFAULT 'application/octet-stream',
    sha256 text NOT NULL DEFAULT '',
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'stored')),
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX uploads_submission_idx ON uploads (submission_id, field_slug)`
  yield* sql`CREATE INDEX uploads_orphans_idx ON uploads (created_at) WHERE submission_id IS NULL OR state = 'pending'`
})
