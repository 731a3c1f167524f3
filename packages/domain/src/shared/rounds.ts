/**
 * Rounds of a use case whose write can lose to a concurrent one (a save after our read, a form changed since
 * its values were validated): a lost round asks for another, which reads and validates again. A named schedule
 * bounds how many rounds run; past it the use case answers what `exhausted` says (nothing was written).
 */
import { Data, Effect, Schedule } from "effect"

/** The round lost to a concurrent change: the next one reads again. */
export class AnotherRound extends Data.TaggedError("AnotherRound")<{}> {}

/** At most `n` rounds: the first and `n - 1` more, none delayed (each one reads what it needs afresh). */
export const atMostRounds = (n: number): Schedule.Schedule<number> => Schedule.recurs(n - 1)

/** Runs `round` again while it fails with `AnotherRound` and `schedule` allows; then fails with `exhausted()`. */
export const inRounds = <A, E, R, X>(
  round: Effect.Effect<A, E | AnotherRound, R>,
  schedule: Schedule.Schedule<number>,
  exhausted: () => X
): Effect.Effect<A, Exclude<E, AnotherRound> | X, R> =>
  round.pipe(
    Effect.retry({ schedule, while: (error) => error instanceof AnotherRound }),
    Effect.mapError((error) => (error instanceof AnotherRound ? exhausted() : error) as Exclude<E, AnotherRound> | X)
  )
