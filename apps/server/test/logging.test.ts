/** The JSON log lines (src/logging.ts): one object a line, values of any kind, nothing secret. */
import { describe, expect, it } from "vitest"
import { Cause, Effect, Logger, Redacted } from "effect"
import { formatLine } from "../src/logging.js"

/** The lines `effect` logs, formatted as the server writes them. */
const linesOf = (effect: Effect.Effect<void>): Array<Record<string, unknown>> => {
  const lines: Array<string> = []
  const capture = Logger.make((options) => void lines.push(formatLine(options)))
  Effect.runSync(effect.pipe(Effect.provide(Logger.layer([capture]))))
  return lines.map((line) => {
    expect(line).not.toContain("\n")
    return JSON.parse(line) as Record<string, unknown>
  })
}

describe("log lines", () => {
  it("a request line: message, level, ISO timestamp and the annotations as they are", () => {
    const [line] = linesOf(Effect.logInfo("request").pipe(
      Effect.annotateLogs({ request_id: "r-1", route: "/public/forms/:token", status: 201, duration_ms: 3, gone: null })
    ))
    expect(line).toEqual({
      message: "request",
      level: "INFO",
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      annotations: { request_id: "r-1", route: "/public/forms/:token", status: 201, duration_ms: 3, gone: null }
    })
  })

  it("other values are serialized safely: a Redacted value is hidden, a cycle or a bigint does not throw", () => {
    const cyclic: Record<string, unknown> = { name: "loop" }
    cyclic["self"] = cyclic
    const [line] = linesOf(Effect.logWarning("odd values", 12n).pipe(
      Effect.annotateLogs({ secret: Redacted.make("postgres://user:pw@db"), cyclic })
    ))
    expect(JSON.stringify(line)).not.toContain("pw@db")
    expect(line?.["message"]).toEqual(["odd values", "12n"])
    expect((line?.["annotations"] as Record<string, unknown>)["cyclic"]).toEqual({ name: "loop" })
  })

  it("a cause is written as class, reason and code (never a message); an error in the message keeps its message; spans appear when there are any", () => {
    const [failed, driver, error] = linesOf(Effect.gen(function*() {
      yield* Effect.logError("cannot start", Cause.fail(new Error("port taken")))
      yield* Effect.logError("driver", Cause.die(Object.assign(new Error("value 'a@b.nl' refused"), {
        _tag: "SqlError",
        reason: { _tag: "UniqueViolation", cause: { code: "23505", detail: "Key (email)=(a@b.nl) exists." } }
      })))
      yield* Effect.logError("unexpected", new TypeError("bad input"))
    }).pipe(Effect.withLogSpan("startup")))
    expect([failed?.["message"], failed?.["cause"]]).toEqual(["cannot start", "Fail Error"])
    expect(Object.keys(failed?.["spans"] as object)).toEqual(["startup"])
    expect(driver?.["cause"]).toBe("Die SqlError UniqueViolation 23505")
    expect(error?.["message"]).toEqual(["unexpected", expect.objectContaining({ name: "TypeError", message: "bad input" })])
  })
})
