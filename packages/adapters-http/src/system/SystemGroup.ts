/** The `system` group: liveness and readiness. */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ApiInternal, ApiUnavailable } from "../http/ErrorEnvelope.js"
import { markPublic, operation, systemTag } from "../http/openApiShape.js"
import { HealthEnvelope } from "./wire.js"

export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("live", "/health/live", { success: HealthEnvelope, error: ApiInternal })
      .annotateMerge(operation("Liveness", "The process is up.")),
    HttpApiEndpoint.get("ready", "/health/ready", { success: HealthEnvelope, error: [ApiUnavailable, ApiInternal] })
      .annotateMerge(operation("Readiness", "The database answers; 503 UNAVAILABLE otherwise."))
  )
  .pipe(markPublic)
  .annotateMerge(OpenApi.annotations({ title: systemTag, description: "Liveness and readiness." }))
{}
