/**
 * The server as a process (for poisonEvent.test.ts) with one more event handler, which kills the process
 * (SIGKILL, nothing recorded) whenever it is given a `submission.submitted` event. Rounds of 3 attempts
 * (fewer restarts than 10; the number is the backoff policy's), leases of 6 s (a delivery timeout of
 * 5 s, which the built-in handlers before ours must not reach on a slow PGlite, plus 1 s), a poll every
 * 100 ms. POISON_DATABASE_URL and POISON_SCHEMA select PostgreSQL; otherwise the embedded database in DATA_DIR.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Layer } from "effect"
import { EmbeddedPg, FormSchemaCache, PgLive, SqlOutboxSignal } from "@forms/adapters-sql"
import { defaultBackoff, EventHandlers, onSubmissionSubmitted } from "@forms/domain"
import { Logging, Server } from "../src/index.js"
import { testConfig } from "./harness.js"

const Poison = EventHandlers.register(Effect.succeed(onSubmissionSubmitted("poison", () =>
  Effect.sync(() => void process.kill(process.pid, "SIGKILL"))
)))

const url = process.env["POISON_DATABASE_URL"]
const schema = process.env["POISON_SCHEMA"] ?? "public"
const config = testConfig({ LOG_LEVEL: "info", HOST: "127.0.0.1" })
const server = Server.layer(config, {
  database: url === undefined ? EmbeddedPg.layer({ dataDir: process.env["DATA_DIR"] }) : PgLive.layer({ url, searchPath: schema }),
  outboxSignal: url === undefined ? undefined : SqlOutboxSignal.layer({ url, schema }),
  schemaCache: url === undefined ? undefined : FormSchemaCache.listening({ url, schema }),
  handlers: [Poison],
  dispatcher: { pollIntervalMs: 100, deliveryTimeoutMs: 5_000, leaseMarginMs: 1_000, backoff: { ...defaultBackoff, maxAttempts: 3 } }
})

NodeRuntime.runMain(Layer.launch(server).pipe(Effect.provide(Logging.layer(config.logLevel))), {
  // SIGTERM interrupts the program: a clean stop exits 0, as the real server's does.
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
