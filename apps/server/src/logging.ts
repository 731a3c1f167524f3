/** JSON logs, one object a line: on stdout for the server, on stderr for the CLI (its stdout is its answer). */
import { Layer, Logger, References } from "effect"
import type { LogLevelName } from "./config.js"

const levels = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

export const loggingLayer = (level: LogLevelName, target: "stdout" | "stderr" = "stdout") =>
  Layer.mergeAll(
    Logger.layer([target === "stdout" ? Logger.consoleJson : Logger.withConsoleError(Logger.formatJson)]),
    Layer.succeed(References.MinimumLogLevel, levels[level])
  )
