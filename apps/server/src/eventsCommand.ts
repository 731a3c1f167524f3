/** `pnpm cli events dead` and `pnpm cli events retry <id>` (CONTRACT §6): the dead-event queue of the outbox. */
import { Console, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { Migrations, SqlOutbox } from "@forms/adapters-sql"
import { Outbox, type OutboxEvent } from "@forms/domain"
import type { ServerConfig } from "./config.js"
import { StartupError } from "./startup.js"

const usage = "events dead | events retry <event_id>"

/** One line per event: id, type, attempts, last error. Never the payload: it holds the submitted values. */
export const deadEventLine = (event: OutboxEvent): string =>
  [event.id, event.type, String(event.attempts), (event.last_error ?? "").replace(/\s+/g, " ")].join("\t")

const listDead = Effect.gen(function*() {
  const dead = yield* (yield* Outbox).dead
  if (dead.length === 0) return yield* Console.log("No dead events.")
  yield* Console.log(["id", "type", "attempts", "last_error"].join("\t"))
  for (const event of dead) yield* Console.log(deadEventLine(event))
})

const retry = (id: string) =>
  Effect.gen(function*() {
    const queued = yield* (yield* Outbox).retry(id)
    if (!queued) return yield* new StartupError({ message: `No dead event has the id ${JSON.stringify(id)}.` })
    yield* Console.log(`Queued ${id} again: a running server delivers it within its poll interval.`)
  })

export const eventsCommand = {
  usage,
  summary: "list the events whose delivery failed for good, or queue one again",
  run: (args: ReadonlyArray<string>, _config: ServerConfig): Effect.Effect<void, unknown, SqlClient.SqlClient> =>
    Effect.gen(function*() {
      const [sub, id, ...rest] = args
      const dead = sub === "dead" && id === undefined
      if (rest.length > 0 || (!dead && (sub !== "retry" || id === undefined))) {
        return yield* new StartupError({ message: `Usage: pnpm cli ${usage}` })
      }
      yield* Migrations.run
      return yield* id === undefined ? listDead : retry(id)
    }).pipe(Effect.provide(SqlOutbox.layer))
} as const
