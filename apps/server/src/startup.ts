/** Start-up before the port opens: migrations, then the fixture (FIXTURE_FILE, or the demo on an empty embedded DB). */
import { Context, Effect, Layer, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { loadFixture, Migrations, reportRefusedPatterns, reportUnlistedTypes } from "@forms/adapters-sql"
import type { ServerConfig } from "./config.js"
import { isEmpty } from "./database.js"
import demoFixture from "./demo-fixture.json" with { type: "json" }

/** A start-up problem worth a plain message (the variable or file it is about). */
export class StartupError extends Schema.TaggedError<StartupError>()("StartupError", { message: Schema.String }) {}

export interface StartupInfo {
  /** Embedded database without FIXTURE_FILE: the demo URLs are printed. */
  readonly demo: boolean
}

export class Startup extends Context.Service<Startup, StartupInfo>()("@forms/server/Startup") {}

/** The demo form whose URL a demo start prints (the only place a token is written out). */
export const demoForms = demoFixture.form_schemas
  .filter((schema) => schema.type !== "artist_advance" && schema.public_token !== null)
  .map((schema) => ({ id: schema.id, name: schema.name, token: schema.public_token ?? "" }))

/** The demo engagement whose portal URL a demo start prints. */
export const demoPortals = demoFixture.engagements
  .filter((engagement) => engagement.portal_token !== null)
  .map((engagement) => ({ id: engagement.id, token: engagement.portal_token ?? "" }))

/** The demo organiser key a demo start prints (public in the repository: for trying the API only). */
export const demoApiKeys = (demoFixture.api_keys ?? []).map((k) => k.key)

/** Reads and parses a fixture file; `variable` names where its path came from. */
export const readFixtureFile = (path: string, variable: string) =>
  Effect.gen(function*() {
    const text = yield* Effect.tryPromise({
      try: () => readFile(path, "utf8"),
      catch: (cause) =>
        new StartupError({
          message: `${variable}: cannot read ${JSON.stringify(path)} (${cause instanceof Error ? cause.message : "unknown error"}).`
        })
    })
    return yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: () => new StartupError({ message: `${variable}: ${JSON.stringify(path)} is not valid JSON.` })
    })
  })

export const startup = (config: ServerConfig) =>
  Effect.gen(function*() {
    yield* Migrations.run
    // forms stored before the pattern cost budget: their refused patterns never match (logged here)
    yield* reportRefusedPatterns
    // forms stored before the lists of form and field types keep theirs (logged here, once per start)
    yield* reportUnlistedTypes
    if (config.fixtureFile !== undefined) {
      const json = yield* readFixtureFile(config.fixtureFile, "FIXTURE_FILE")
      const summary = yield* loadFixture(json)
      yield* Effect.logInfo("fixture loaded").pipe(Effect.annotateLogs({ changed_rows: summary.changed }))
      return { demo: false }
    }
    if (config.databaseUrl !== undefined) return { demo: false }
    if (yield* isEmpty) {
      const summary = yield* loadFixture(demoFixture)
      yield* Effect.logInfo("demo fixture loaded").pipe(Effect.annotateLogs({ changed_rows: summary.changed }))
    }
    return { demo: true }
  })

/** Builds by running the start-up; needs `SqlClient`. */
const makeStartupLayer = (config: ServerConfig) => Layer.effect(Startup, Effect.map(startup(config), Startup.of))

/** `StartupLive.layer`. */
export const StartupLive = { layer: makeStartupLayer } as const
