/** Entry point of the standalone server (CONTRACT §11). */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Layer, References, Result } from "effect"
import { parseConfig } from "./config.js"
import { describeCause } from "./describeError.js"
import { applyHeapLimits } from "./heapLimits.js"
import { Logging } from "./logging.js"
import { Server } from "./ServerLayer.js"

// The young generation capped and the old one kept near the live heap (see heapLimits.ts); node flags win.
applyHeapLimits()

const parsed = parseConfig(process.env)
if (Result.isFailure(parsed)) {
  process.stderr.write(`Invalid configuration, the server does not start:\n${parsed.failure.map((p) => `  ${p}\n`).join("")}`)
  process.exit(1)
}
const config = parsed.success

// A stop that outlives the 10 s grace for requests plus closing the database is cut short. The listeners stay
// until the process exits: a terminal's Ctrl-C or a supervisor signals the whole process group, and pnpm and tsx
// relay the signal again, so a second SIGTERM or SIGINT may come while the server stops. Without a listener it
// would end the graceful stop with the signal's exit code (128 + n), which pnpm reports as a failed command.
let stopping = false
const hardStop = () => {
  if (stopping) return
  stopping = true
  setTimeout(() => process.exit(1), 20_000).unref()
}
process.on("SIGTERM", hardStop)
process.on("SIGINT", hardStop)

const program = Layer.launch(Server.layer(config)).pipe(
  Effect.onInterrupt(() => Effect.logInfo("stopped: requests finished, database closed")),
  Effect.catchCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.failCause(cause)
      : Effect.logError(`cannot start: ${describeCause(cause)}`).pipe(Effect.andThen(Effect.failCause(cause)))
  ),
  Effect.provide(Logging.layer(config.logLevel))
)

// Without OTEL_EXPORTER_OTLP_ENDPOINT no tracer or exporter is loaded: spans would be recorded (with clock reads)
// for nobody to read, so request and SQL spans become no-op spans (logs are unaffected: log spans and annotations
// are not traces). With it, the exporter's module is imported and its tracer serves the whole program; released
// last, it sends the spans it still holds.
const tracing = config.tracing
const traced = tracing === undefined
  ? program.pipe(
    Effect.provideService(References.TracerEnabled, false),
    Effect.provideService(References.TracerTimingEnabled, false)
  )
  : program.pipe(
    Effect.provide(Layer.unwrap(Effect.promise(() => import("./operations/tracing.js")).pipe(
      Effect.map(({ tracingLayer }) => tracingLayer(tracing))
    )))
  )

NodeRuntime.runMain(traced, {
  disableErrorReporting: true,
  // SIGTERM/SIGINT interrupt the program: a clean stop exits 0.
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? 0 : 1)
})
