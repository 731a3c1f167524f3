/** An in-process server on a free port over the test fixture, on an in-memory PGlite or TEST_DATABASE_URL. */
import { Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { EmbeddedPg, FormSchemaCache, PgLive, SqlOutboxSignal } from "@forms/adapters-sql"
import type { DispatcherOptions, WebhookEngineOptions } from "@forms/domain"
import { type HandlersLayer, Logging, Server, parseConfig, type ServerConfig } from "../src/index.js"

export const fixturePath = fileURLToPath(new URL("./fixture.json", import.meta.url))
export const testDatabaseUrl = process.env["TEST_DATABASE_URL"]

export const testConfig = (env: Record<string, string> = {}): ServerConfig => {
  // Uploads go to a folder of this server's own, never into the working tree.
  const filesDir = mkdtempSync(join(tmpdir(), "forms-test-files-"))
  const parsed = parseConfig({ PORT: "0", FIXTURE_FILE: fixturePath, LOG_LEVEL: "error", FILES_DIR: filesDir, ...env })
  if (parsed._tag === "Failure") throw new Error(parsed.failure.join("\n"))
  return parsed.success
}

/** A schema of its own on the real server, dropped when the layer is released. */
export const isolatedSchema = (url: string, schema: string) =>
  Layer.unwrap(Effect.gen(function*() {
    const admin = PgLive.layer({ url })
    yield* Effect.acquireRelease(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE SCHEMA ${schema}`)).pipe(Effect.provide(admin)),
      () =>
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA ${schema} CASCADE`)).pipe(
          Effect.provide(admin),
          Effect.ignore
        )
    )
    return PgLive.layer({ url, searchPath: schema })
  }))

export type Backend = "embedded" | "postgres"

export interface TestServerOptions {
  readonly handlers?: ReadonlyArray<HandlersLayer>
  readonly dispatcher?: Partial<DispatcherOptions>
  readonly webhookEngine?: Partial<WebhookEngineOptions>
}

/**
 * The whole server over the test fixture. On PostgreSQL it runs in a schema of its own, with the
 * LISTEN/NOTIFY signal a server with DATABASE_URL uses (waking only for its own schema).
 */
export const testServer = (backend: Backend, env: Record<string, string> = {}, options: TestServerOptions = {}) => {
  const config = testConfig(env)
  const schema = `http_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  const postgres = backend === "postgres" ? testDatabaseUrl : undefined
  return Server.layer(config, {
    database: postgres === undefined ? EmbeddedPg.layer() : isolatedSchema(postgres, schema),
    outboxSignal: postgres === undefined ? undefined : SqlOutboxSignal.layer({ url: postgres, schema }),
    schemaCache: postgres === undefined ? undefined : FormSchemaCache.listening({ url: postgres, schema }),
    handlers: options.handlers,
    dispatcher: options.dispatcher,
    webhookEngine: options.webhookEngine
  }).pipe(Layer.provide(Logging.layer(config.logLevel)))
}

/** Runs `effect` until `done` holds for its result, every 50 ms, failing after `timeoutMs`. */
export const eventually = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  done: (a: A) => boolean,
  timeoutMs = 15_000
): Effect.Effect<A, E | Error, R> =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMs
    while (true) {
      const result = yield* effect
      if (done(result)) return result
      if (Date.now() > deadline) return yield* Effect.fail(new Error(`not done within ${timeoutMs} ms`))
      yield* Effect.sleep("50 millis")
    }
  })

/** The server keeps real time: test services (TestClock) would freeze it at 1970. */
export const liveOptions = { timeout: 120_000, excludeTestServices: true } as const

export const baseUrl = Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))

export interface RawResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

export const call = (path: string, init: { method?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async (): Promise<RawResponse> => {
      const body = init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body))
      const response = await fetch(base + path, {
        method: init.method ?? "GET",
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
        ...(body === undefined ? {} : { body })
      })
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))

export const envelope = (code: string, message: string, fields?: unknown) =>
  JSON.stringify({ error: fields === undefined ? { code, message } : { code, message, fields } })

export const dataOf = (response: RawResponse): Record<string, unknown> => JSON.parse(response.text).data
