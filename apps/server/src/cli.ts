/** Entry point of the command-line tool: `pnpm cli <command>`, configured like the server. */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Effect, Exit, Result } from "effect"
import { commands, usage } from "./commands.js"
import { parseConfig } from "./config.js"
import { Database } from "./database.js"
import { describeCause } from "./describeError.js"
import { Logging } from "./logging.js"

const [name, ...args] = process.argv.slice(2)
const command = name === undefined ? undefined : commands[name]
if (command === undefined) {
  process.stderr.write(`${name === undefined || name === "help" || name === "--help" ? "" : `Unknown command ${JSON.stringify(name)}.\n\n`}${usage()}\n`)
  process.exit(name === "help" || name === "--help" ? 0 : 2)
}

const parsed = parseConfig(process.env)
if (Result.isFailure(parsed)) {
  process.stderr.write(`Invalid configuration:\n${parsed.failure.map((p) => `  ${p}\n`).join("")}`)
  process.exit(1)
}
const config = parsed.success

const program = (command.opensDatabase === false
  ? command.run(args, config)
  : command.run(args, config).pipe(Effect.provide(Database.layer(config)))).pipe(
  Effect.catchCause((cause) =>
    Cause.hasInterruptsOnly(cause)
      ? Effect.failCause(cause)
      : Effect.sync(() => process.stderr.write(`${describeCause(cause)}\n`)).pipe(Effect.andThen(Effect.failCause(cause)))
  ),
  Effect.provide(Logging.layer(config.logLevel, "stderr"))
)

NodeRuntime.runMain(program, {
  disableErrorReporting: true,
  teardown: (exit, onExit) => onExit(Exit.isSuccess(exit) ? 0 : 1)
})
