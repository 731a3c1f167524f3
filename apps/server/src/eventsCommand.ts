/**
 * `pnpm cli events dead` and `pnpm cli events retry <id>` (CONTRACT §6): the dead-event queue of the outbox,
 * through the same use cases as `GET /admin/outbox?state=dead` and `POST /admin/outbox/{id}/retry` (unscoped:
 * the CLI sees every organisation's events, and its retries are not audited, as it acts with no key).
 */
import { Console, Effect, Layer, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { FolderFileStorage, Migrations, SqlFileUploads, SqlOutboxAdmin, SqlSubmissionRecords } from "@forms/adapters-sql"
import { type CreatedKey, type OutboxEntry, SubmissionsOut, SubmissionsOutLive } from "@forms/domain"
import type { ServerConfig } from "./config.js"
import { StartupError } from "./startup.js"

const usage = "events dead | events retry <event_id>"

/** One line per event: id, type, attempts, last error. Never the payload: it holds the submitted values. */
export const deadEventLine = (event: OutboxEntry): string =>
  [event.id, event.type, String(event.attempts), (event.last_error ?? "").replace(/\s+/g, " ")].join("\t")

const listDead = Effect.gen(function*() {
  const out = yield* SubmissionsOut
  let after: CreatedKey | undefined
  let any = false
  for (;;) {
    const page = yield* out.listOutbox(undefined, "dead", { limit: 200, after })
    for (const event of page.items) {
      if (!any) yield* Console.log(["id", "type", "attempts", "last_error"].join("\t"))
      any = true
      yield* Console.log(deadEventLine(event))
    }
    const last = Option.fromUndefinedOr(page.items.at(-1))
    if (!page.more || Option.isNone(last)) break
    after = { created_at: last.value.created_at, id: last.value.id }
  }
  if (!any) yield* Console.log("No dead events.")
})

const retry = (id: string) =>
  Effect.gen(function*() {
    yield* (yield* SubmissionsOut).retryOutboxEvent(undefined, id).pipe(
      Effect.catchTags({
        OutboxEventNotFound: () => new StartupError({ message: `No dead event has the id ${JSON.stringify(id)}.` }),
        EventNotDead: () => new StartupError({ message: `No dead event has the id ${JSON.stringify(id)}.` })
      })
    )
    yield* Console.log(`Queued ${id} again: a running server delivers it within its poll interval.`)
  })

const useCases = (config: ServerConfig) =>
  SubmissionsOutLive.layer.pipe(
    Layer.provide([SqlSubmissionRecords.layer, SqlOutboxAdmin.layer, SqlFileUploads.layer, FolderFileStorage.layer(config.filesDir)])
  )

export const eventsCommand = {
  usage,
  summary: "list the events whose delivery failed for good, or queue one again",
  run: (args: ReadonlyArray<string>, config: ServerConfig): Effect.Effect<void, unknown, SqlClient.SqlClient> =>
    Effect.gen(function*() {
      const [sub, id, ...rest] = args
      const dead = sub === "dead" && id === undefined
      if (rest.length > 0 || (!dead && (sub !== "retry" || id === undefined))) {
        return yield* new StartupError({ message: `Usage: pnpm cli ${usage}` })
      }
      yield* Migrations.run
      return yield* (id === undefined ? listDead : retry(id)).pipe(Effect.provide(useCases(config)))
    })
} as const
