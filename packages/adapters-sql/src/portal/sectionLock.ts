/** Whether an advance section is locked, in SQL (the domain's `isLockedAt`, CONTRACT §21). */
import type { SqlClient } from "effect/sql"

/**
 * Over the section row `alias`: `locked` when set, else whether `locks_at` is at or before `at` (false without
 * one, never null).
 */
export const lockedAt = (sql: SqlClient.SqlClient, alias: string, at: Date) =>
  sql`COALESCE(${sql.literal(alias)}.locked, ${sql.literal(alias)}.locks_at IS NOT NULL AND ${sql.literal(alias)}.locks_at <= ${at}::timestamptz)`
