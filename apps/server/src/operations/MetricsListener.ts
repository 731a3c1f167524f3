/**
 * METRICS_PORT: a second HTTP listener, on HOST, that answers `GET /metrics` (and HEAD) in the Prometheus text
 * format and 404 to anything else; the public port never serves it. The counters and the request histogram are
 * Effect metrics kept as they happen; at each scrape the process metrics are read and the database gauges
 * refreshed (at most once per 5 s), then Effect's Prometheus formatter writes the whole registry.
 */
import { Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PrometheusMetrics from "effect/observability/PrometheusMetrics"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { registerCounters } from "@forms/domain/internal"
import type { ServerConfig } from "../config.js"
import { makeOperationsGauges } from "./operationsGauges.js"
import { makeProcessMetrics } from "./processMetrics.js"

const contentType = "text/plain; version=0.0.4; charset=utf-8"

const listen = (server: Server, port: number, host: string) =>
  Effect.callback<AddressInfo, Error>((resume) => {
    const onError = (error: Error) => resume(Effect.fail(error))
    server.once("error", onError)
    server.listen(port, host, () => {
      server.off("error", onError)
      resume(Effect.succeed(server.address() as AddressInfo))
    })
  })

const makeMetricsListener = (config: ServerConfig, port: number) =>
  Layer.effectDiscard(Effect.gen(function*() {
    yield* registerCounters
    const refreshGauges = yield* makeOperationsGauges({ embedded: config.databaseUrl === undefined })
    const processMetrics = makeProcessMetrics()
    yield* Effect.addFinalizer(() => Effect.sync(processMetrics.stop))
    const context = yield* Effect.context<SqlClient.SqlClient>()
    const scrape = Effect.gen(function*() {
      yield* processMetrics.update
      yield* refreshGauges
      return yield* PrometheusMetrics.format()
    })
    const server = createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0]
      if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
        res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found: this port serves GET /metrics only.\n")
        return
      }
      Effect.runPromiseWith(context)(scrape).then(
        (body) => res.writeHead(200, { "content-type": contentType }).end(req.method === "HEAD" ? undefined : body),
        () => res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("metrics unavailable\n")
      )
    })
    const address = yield* Effect.acquireRelease(
      listen(server, port, config.host),
      () => Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
    )
    yield* Effect.logInfo("metrics listening").pipe(
      Effect.annotateLogs({ address: `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}/metrics` })
    )
  }))

/** `MetricsListener.layer(config)`: nothing when METRICS_PORT is unset. Needs `SqlClient`. */
export const MetricsListener = {
  layer: (config: ServerConfig) =>
    config.metricsPort === undefined ? Layer.empty : makeMetricsListener(config, config.metricsPort)
} as const
