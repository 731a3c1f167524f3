/**
 * The token key kept in the database when TOKEN_KEY is unset: one row of `token_keys`, made by the first process
 * that needs it (`ON CONFLICT DO NOTHING`) and read by every other, so all processes seal and open alike.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { sqlFailure } from "../sql/SqlFailure.js"

/** The key's text (base64 of 32 bytes); `fresh` is stored unless a key is stored already. */
export const sqlTokenKey = (fresh: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO token_keys (id, key) VALUES (1, ${fresh}) ON CONFLICT (id) DO NOTHING`
    const [row] = yield* sql<{ readonly key: string }>`SELECT key FROM token_keys WHERE id = 1`
    if (row === undefined) return yield* Effect.die("token_keys has no key after its insert")
    return row.key
  }).pipe(Effect.catchTag("SqlError", sqlFailure))
