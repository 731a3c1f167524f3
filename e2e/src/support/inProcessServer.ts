/** The whole server started inside the test's own process (Server.layer), on a free port. */
import { createHmac } from "node:crypto"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { EmbeddedPg, PgLive } from "@forms/adapters-sql"
import { WebhookTransport } from "@forms/domain"
import { Logging, Server, parseConfig } from "@forms/server"
import { fixturePath } from "./paths.js"

export interface InProcessServer {
  readonly origin: string
  /** SQL on the server's own database (the PGlite inside, or the PostgreSQL database given). */
  readonly query: (text: string, params?: ReadonlyArray<unknown>) => Promise<ReadonlyArray<Record<string, unknown>>>
  readonly close: () => Promise<void>
}

/**
 * Webhook messages never leave the test's process: every host "resolves" to a public address (the guard refuses
 * the documentation ranges) and every POST is answered 204 without a socket. Fuzzed endpoint URLs name any host.
 */
const offlineWebhooks = Layer.succeed(WebhookTransport, {
  resolve: () => Effect.succeed(["93.184.216.34"]),
  sign: (secret, content) =>
    Effect.sync(() => createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64")).update(content).digest("base64")),
  send: () => Effect.succeed({ _tag: "Answer", status: 204, retryAfter: null } as const)
})

/** `databaseUrl` unset: an in-memory PGlite. `env` overrides the server's variables (CONTRACT §11). */
export const startInProcess = async (env: Record<string, string>, databaseUrl?: string): Promise<InProcessServer> => {
  const parsed = parseConfig({ PORT: "0", HOST: "127.0.0.1", FIXTURE_FILE: fixturePath, LOG_LEVEL: "error", ...env })
  if (parsed._tag === "Failure") throw new Error(parsed.failure.join("\n"))
  const config = parsed.success
  const database = databaseUrl === undefined ? EmbeddedPg.layer() : PgLive.layer({ url: databaseUrl })
  const layer = Server.layer(config, { database, webhookTransport: offlineWebhooks }).pipe(Layer.provide(Logging.layer(config.logLevel)))
  const runtime = ManagedRuntime.make(layer)
  const origin = await runtime.runPromise(
    Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))
  )
  const query = (text: string, params: ReadonlyArray<unknown> = []) =>
    runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe<Record<string, unknown>>(text, params)))
  return { origin, query, close: () => runtime.dispose() }
}
