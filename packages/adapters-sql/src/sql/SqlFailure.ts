/** Maps `SqlError` to the domain: a connection problem or a timeout is `Unavailable`, anything else a defect. */
import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import { InUse, Unavailable } from "@forms/domain"

const unavailableReasons = new Set([
  "ConnectionError",
  "AuthenticationError",
  "StatementTimeoutError",
  "LockTimeoutError"
])

const sqlState = (cause: unknown): string | undefined => {
  if (typeof cause !== "object" || cause === null || !("code" in cause)) return undefined
  return typeof cause.code === "string" ? cause.code : undefined
}

// 08 connection exception, 53 insufficient resources (too many connections), 57P operator intervention
// (shutdown, cannot connect now), 57014 a cancelled (timed out) statement.
const unavailableStates = /^(08|53|57P|57014)/

/** A foreign key violation (SQLSTATE 23503): a row referred to is gone, or a row referring to it came meanwhile. */
export const isForeignKeyViolation = (error: SqlError): boolean => sqlState(error.reason.cause) === "23503"

export const isUnavailable = (error: SqlError): boolean => {
  if (unavailableReasons.has(error.reason._tag)) return true
  const code = sqlState(error.reason.cause)
  return code !== undefined && unavailableStates.test(code)
}

export const toUnavailable = (error: SqlError): Unavailable =>
  new Unavailable({ reason: `${error.reason._tag}: ${error.reason.message}` })

/** For `Effect.catchTag("SqlError", sqlFailure)`: `Unavailable` for connection problems, else a defect (500). */
export const sqlFailure = (error: SqlError): Effect.Effect<never, Unavailable> =>
  isUnavailable(error) ? Effect.fail(toUnavailable(error)) : Effect.die(error)

/**
 * For deletes: a foreign-key violation at commit (a reference added after the delete checked for
 * references, e.g. by a fixture load) is IN_USE, never a 500.
 */
export const deleteFailure = (error: SqlError): Effect.Effect<never, InUse | Unavailable> =>
  isForeignKeyViolation(error) ? Effect.fail(new InUse()) : sqlFailure(error)
