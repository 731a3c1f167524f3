/**
 * The server as a process for webhookProcess.test.ts: the test fixture, webhook settings from the environment,
 * a webhook engine polling every 100 ms with leases of the attempt timeout + 1 s, and the organiser keys
 * HOOKS_API_KEY of org-t and HOOKS_API_KEY_B (if set) of org-u registered once started ("webhook key ready").
 * HOOKS_DATABASE_URL and HOOKS_SCHEMA select PostgreSQL; otherwise the embedded database in DATA_DIR. Hosts are
 * resolved with the name server HOOKS_NAME_SERVER (`address:port`) if set, else the system's.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Clock, Effect, Exit, Layer, Option } from "effect"
import { EmbeddedPg, FormSchemaCache, PgLive, SqlOutboxSignal } from "@forms/adapters-sql"
import { NodeWebhookTransport } from "@forms/adapters-http"
import { OrganiserAccess, WebhookTransport } from "@forms/domain"
import { Logging, Server } from "../src/index.js"
import { testConfig } from "./harness.js"

const env = (name: string) => process.env[name] ?? ""
const url = process.env["HOOKS_DATABASE_URL"]
const schema = process.env["HOOKS_SCHEMA"] ?? "public"
const config = testConfig({
  LOG_LEVEL: "info",
  HOST: "127.0.0.1",
  WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
  WEBHOOK_TIMEOUT_MS: env("WEBHOOK_TIMEOUT_MS"),
  WEBHOOK_RETRY_SCHEDULE: env("WEBHOOK_RETRY_SCHEDULE"),
  RATE_LIMIT_EXEMPT_NETWORKS: "127.0.0.1/32"
})
const server = Server.layer(config, {
  database: url === undefined ? EmbeddedPg.layer({ dataDir: process.env["DATA_DIR"] }) : PgLive.layer({ url, searchPath: schema }),
  outboxSignal: url === undefined ? undefined : SqlOutboxSignal.layer({ url, schema }),
  schemaCache: url === undefined ? undefined : FormSchemaCache.listening({ url, schema }),
  webhookEngine: { pollIntervalMs: 100, leaseMarginMs: 1_000 },
  // The Node transport, each message marked with this process's name (HOOKS_NAME), so a test sees who sent it.
  webhookTransport: Layer.effect(WebhookTransport, Effect.map(WebhookTransport, (node) =>
    WebhookTransport.of({
      ...node,
      send: (message) => node.send({ ...message, headers: { ...message.headers, "x-test-process": env("HOOKS_NAME") } })
    }))).pipe(Layer.provide(NodeWebhookTransport.make({ nameServers: env("HOOKS_NAME_SERVER") === "" ? undefined : [env("HOOKS_NAME_SERVER")] })))
})

const key = Layer.effectDiscard(Effect.gen(function*() {
  const access = yield* OrganiserAccess
  const keys = [["org-t", env("HOOKS_API_KEY")], ["org-u", env("HOOKS_API_KEY_B")]] as const
  for (const [organisation_id, key] of keys) {
    if (key === "" || Option.isSome(yield* access.findApiKey(key))) continue
    yield* access.createApiKey({ organisation_id, name: "hooks", key, created_at: yield* Clock.currentTimeMillis })
  }
  yield* Effect.logInfo("webhook key ready")
}).pipe(Effect.orDie))

NodeRuntime.runMain(Layer.launch(key.pipe(Layer.provide(server))).pipe(Effect.provide(Logging.layer(config.logLevel))), {
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
