/** A pooled connection to a real PostgreSQL server, with timeouts so that nothing waits forever. */
import { PgClient } from "@effect/sql-pg"
import { Cause, Duration, Effect, Redacted } from "effect"
import { isSqlError } from "effect/sql/SqlError"

export interface PgLiveOptions {
  readonly url: string | Redacted.Redacted
  /** Pool size; default 10. */
  readonly maxConnections?: number | undefined
  /**
   * Statements that may share one pooled connection, pipelined (`multiplex`); default
   * `pgMultiplexConcurrency`. 1 (or less): each statement has a connection to itself while it runs.
   */
  readonly multiplexConcurrency?: number | undefined
  /** Default 5 seconds. */
  readonly connectTimeout?: Duration.Input | undefined
  /** Server-side `statement_timeout` and `lock_timeout`; default 10 seconds. */
  readonly statementTimeout?: Duration.Input | undefined
  /** A schema to work in (the tests isolate each file in its own); default the server's search_path. */
  readonly searchPath?: string | undefined
}

/**
 * Statements outside a transaction share pooled connections, up to this many on one (the driver's
 * `multiplex`): they go out pipelined, several in one write, and their answers come back in one read, as
 * `postgres.js` does. Under load this took about a fifth off the server's CPU per request (bench/RESULTS.md,
 * session 6). Transactions and LISTEN still hold a connection of their own. 8 rather than the driver's 32:
 * as fast under the bench's load. The pool opens one connection per 8 statements waiting, so when a database
 * accepts connections but never answers, the attempts (each failing one waiting statement after `connectTimeout`)
 * run a few at a time rather than up to 10 at once (a pool kept at its full size of 10 would restore that, but
 * cost 8–10 % more CPU per request under load: measured, bench/RESULTS.md session 6).
 */
export const pgMultiplexConcurrency = 8

const millis = (input: Duration.Input | undefined, fallback: Duration.Duration): string =>
  String(Duration.toMillis(input === undefined ? fallback : Duration.fromInputUnsafe(input)))

/** The pool's settings: session timeouts travel in the startup packet, so every connection has them. */
export const pgLiveConfig = (options: PgLiveOptions): PgClient.PgPoolConfig => {
  const statementTimeout = millis(options.statementTimeout, Duration.seconds(10))
  return {
    url: typeof options.url === "string" ? Redacted.make(options.url) : options.url,
    maxConnections: options.maxConnections ?? 10,
    ...(options.multiplexConcurrency !== undefined && options.multiplexConcurrency <= 1
      ? {}
      : { multiplex: true, multiplexConcurrency: options.multiplexConcurrency ?? pgMultiplexConcurrency }),
    connectTimeout: options.connectTimeout ?? Duration.seconds(5),
    applicationName: "forms-portal",
    startupParameters: {
      statement_timeout: statementTimeout,
      lock_timeout: statementTimeout,
      // A client that dies inside a transaction must not hold its row locks for long.
      idle_in_transaction_session_timeout: "60000",
      ...(options.searchPath === undefined ? {} : { search_path: options.searchPath })
    }
  }
}

/**
 * Effect's `withTransaction` turns a failed ROLLBACK (and the release after it) into defects. When the
 * connection is lost inside a transaction, the statement fails and so does the ROLLBACK on the dead
 * socket: the defects hid the `SqlError` from the ports' `sqlFailure`, so a lost database answered 500
 * instead of 503. PostgreSQL rolls back the transaction of a session that ends, so when every defect is
 * a `SqlError`, the first is the failure to report (`sqlFailure` still makes any other kind a defect).
 */
const rollbackFailureAsError = (client: PgClient.PgClient): PgClient.PgClient => {
  const withTransaction = client.withTransaction
  return Object.assign(client, {
    withTransaction: <R, E, A>(effect: Effect.Effect<A, E, R>) =>
      withTransaction(effect).pipe(Effect.catchCause((cause) => {
        const defects = cause.reasons.filter(Cause.isDieReason).map((reason) => reason.defect)
        const [first] = defects
        const onlySqlErrors = first !== undefined && isSqlError(first) && defects.every(isSqlError)
        if (!onlySqlErrors || cause.reasons.some(Cause.isInterruptReason)) return Effect.failCause(cause)
        return Effect.fail(first)
      }))
  })
}

export const PgLive = {
  /** Provides `PgClient` and `SqlClient`. Connections open lazily, so a server that is down fails queries, not the layer. */
  layer: (options: PgLiveOptions) =>
    PgClient.layerFrom(Effect.map(PgClient.make(pgLiveConfig(options)), rollbackFailureAsError))
} as const
