/** Handlers of the system group: liveness, and readiness through the `Readiness` port. */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.js"
import { wireErrors } from "../http/errorTable.js"
import { Readiness } from "./Readiness.js"

const ok = { data: { status: "ok" as const } }

export const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function*(handlers) {
    const readiness = yield* Readiness
    return handlers
      .handle("live", () => Effect.succeed(ok))
      .handle("ready", () => wireErrors(readiness.check).pipe(Effect.as(ok)))
  })
)
