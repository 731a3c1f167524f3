/** Handlers of the `manage` group: the limited use cases of `VolunteerShifts`, answered with their RateLimit headers. */
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { VolunteerShifts } from "@forms/domain"
import { Api } from "../Api.js"
import { clientOf } from "../http/clientIp.js"
import { limitedAnswer } from "../http/rateLimitHeaders.js"
import { HttpConfig } from "../HttpConfig.js"
import { toManageWire } from "./manageWire.js"

export const ManageHandlers = HttpApiBuilder.group(
  Api,
  "manage",
  Effect.fn(function*(handlers) {
    const shifts = yield* VolunteerShifts
    const config = yield* HttpConfig
    const client = (request: HttpServerRequest.HttpServerRequest) =>
      clientOf(request, config.trustProxyHops, config.exemptNetworks)

    return handlers
      .handle("getManage", ({ params, request }) =>
        Effect.map(limitedAnswer(shifts.manage(params.token, client(request))), (view) => ({ data: toManageWire(view) })))
      .handle("cancelPlace", ({ params, request }) =>
        Effect.asVoid(limitedAnswer(shifts.cancelPlace(params.token, params.slotId, client(request)))))
  })
)
