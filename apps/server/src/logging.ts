/**
 * JSON logs, one object a line: on stdout for the server, on stderr for the CLI (its stdout is its answer).
 * A line is `{ message, level, timestamp, annotations }`, plus `cause` and `spans` when there are any. A
 * cause is written as the class, reason and code of each of its errors (`describeCause`), never their
 * messages or stacks: a driver's error text may quote the values of a statement.
 *
 * Written straight to the stream with one `write` per line, not through `Logger.consoleJson` (`console.log` and a
 * replacer-driven serializer cost too much CPU on every request line). Lines whose message and annotations are all
 * strings, numbers, booleans or null (every request line) are serialized with `JSON.stringify`; any other value goes
 * through `Formatter.formatJson`, which redacts `Redacted` values and survives cycles and bigints.
 */
import { Formatter, Layer, Logger, References } from "effect"
import { describeCause } from "@forms/adapters-http"
import type { LogLevelName } from "./config.js"

const levels = { debug: "Debug", info: "Info", warn: "Warn", error: "Error" } as const

const isPlain = (value: unknown): boolean =>
  value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean"

export const formatLine = (options: Logger.Options<unknown>): string => {
  const messages = Array.isArray(options.message) ? options.message : [options.message]
  const annotations = options.fiber.getRef(References.CurrentLogAnnotations)
  const record: Record<string, unknown> = {
    message: messages.length === 1 ? messages[0] : messages,
    level: options.logLevel.toUpperCase(),
    timestamp: options.date.toISOString()
  }
  if (options.cause.reasons.length > 0) record["cause"] = describeCause(options.cause)
  record["annotations"] = annotations
  const spans = options.fiber.getRef(References.CurrentLogSpans)
  if (spans.length > 0) {
    const now = options.date.getTime()
    record["spans"] = Object.fromEntries(spans.map(([label, started]) => [label, now - started]))
  }
  const plain = messages.every(isPlain) && Object.values(annotations).every(isPlain)
  return plain ? JSON.stringify(record) : Formatter.formatJson(record)
}

const makeLoggingLayer = (level: LogLevelName, target: "stdout" | "stderr" = "stdout") => {
  const stream = target === "stdout" ? process.stdout : process.stderr
  const jsonLines = Logger.make((options) => {
    stream.write(`${formatLine(options)}\n`)
  })
  return Layer.mergeAll(Logger.layer([jsonLines]), Layer.succeed(References.MinimumLogLevel, levels[level]))
}

/** `Logging.layer(…)`. */
export const Logging = { layer: makeLoggingLayer } as const
