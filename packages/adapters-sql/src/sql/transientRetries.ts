/** Transactions run again when PostgreSQL aborted them for a cause that another run escapes. */
import { Schedule } from "effect"
import { isSqlError } from "effect/sql/SqlError"

/** A deadlock or a serialization failure: PostgreSQL chose this transaction to abort, and a new run may pass. */
export const isTransient = (error: unknown): boolean =>
  isSqlError(error) && (error.reason._tag === "DeadlockError" || error.reason._tag === "SerializationError")

/** For `Effect.retry`: up to 3 more runs, at once, while the failure is transient; any other failure at once. */
export const transientRetries = Schedule.recurs(3).pipe(Schedule.while(({ input }) => isTransient(input)))
