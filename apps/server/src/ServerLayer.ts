/** The standalone server as one layer: database, start-up, use cases, HTTP on Node, the start-up log line. */
import { NodeHttpServer } from "@effect/platform-node"
import type { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import type { NetAddress } from "effect/net"
import type { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import { HttpAppServer, HttpConfig } from "@forms/adapters-http"
import { SqlPorts } from "@forms/adapters-sql"
import { FormSchemas, FormsConfig, PublicFormsLayer } from "@forms/domain"
import { baseUrlOf, formUrl, type ServerConfig } from "./config.js"
import { databaseLayer, ReadinessLive } from "./database.js"
import { demoForms, Startup, startupLayer } from "./startup.js"

const portOf = (address: NetAddress.SocketAddress): number =>
  address._tag === "UnixPathAddress" ? 0 : address.port

/** The one start-up line: the address, and in demo mode the demo form URLs whose tokens still resolve. */
const announce = (config: ServerConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const { demo } = yield* Startup
    const schemas = yield* FormSchemas
    const base = baseUrlOf(config, portOf(server.address))
    const annotations: Record<string, string> = { address: HttpServer.formatAddress(server.address) }
    if (demo) {
      for (const form of demoForms) {
        const found = yield* schemas.findByToken(form.token).pipe(Effect.orElseSucceed(() => Option.none()))
        if (Option.isSome(found) && found.value.public_token === form.token) {
          annotations[`demo_${form.id}`] = formUrl(base, form.token)
        }
      }
    }
    yield* Effect.logInfo("listening").pipe(Effect.annotateLogs(annotations))
    yield* Effect.addFinalizer(() => Effect.logInfo("stopping: no new connections, finishing requests in flight"))
  }))

export interface ServerLayerOptions<E> {
  /** Replaces the database of the configuration (tests: an in-memory PGlite, a schema of their own). */
  readonly database?: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E> | undefined
}

export const makeServerLayer = <E = never>(config: ServerConfig, options: ServerLayerOptions<E> = {}) => {
  const database: Layer.Layer<
    PgClient.PgClient | SqlClient.SqlClient,
    E | Layer.Error<ReturnType<typeof databaseLayer>>
  > = options.database ?? databaseLayer(config)
  const UseCases = PublicFormsLayer.pipe(
    Layer.provide(SqlPorts.layer),
    Layer.provide(FormsConfig.layer({
      tokenGraceSeconds: config.tokenGraceSeconds,
      submitLimitPerHour: config.submitRateLimitPerHour,
      portalLimitPerMinute: config.portalRateLimitPerMinute
    }))
  )
  const Http = HttpAppServer.pipe(
    Layer.provide([
      UseCases,
      ReadinessLive,
      HttpConfig.layer({
        maxBodyBytes: config.maxBodyBytes,
        trustProxyHops: config.trustProxyHops,
        sizeLimits: {
          maxValuesKeys: config.maxValuesKeys,
          maxStringLength: config.maxStringLength,
          maxArrayItems: config.maxArrayItems
        }
      })
    ]),
    // On shutdown the server stops accepting and waits for requests in flight, up to 10 seconds.
    Layer.provideMerge(NodeHttpServer.layer(createServer, {
      port: config.port,
      host: config.host,
      gracefulShutdownTimeout: Duration.seconds(10)
    }))
  )
  return announce(config).pipe(
    Layer.provideMerge(Http),
    // Migrations and the fixture run before the port opens.
    Layer.provideMerge(startupLayer(config)),
    Layer.provide(SqlPorts.layer),
    Layer.provideMerge(database)
  )
}
