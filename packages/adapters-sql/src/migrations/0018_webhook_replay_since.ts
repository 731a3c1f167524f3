/**
 * Migration 18: the earliest time a replay of a webhook endpoint reached back to (CONTRACT §13: a replay sends
 * every event of its types since then). A replay queues the events already handled; an event recorded since then
 * but handled only later (pending or dead at the replay) is fanned out to the endpoint when it is handled, though
 * the endpoint was created after it. Null until the endpoint's first replay.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN replay_since timestamptz`
})
