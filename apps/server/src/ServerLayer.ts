/**
 * The standalone server as one layer: database, start-up, ports, use cases, the event dispatcher, HTTP on
 * Node, the start-up log line.
 */
import { NodeHttpServer } from "@effect/platform-node"
import type { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import type { NetAddress } from "effect/net"
import type { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import {
  AdminConfig,
  answerClientError,
  answerUntilServed,
  HttpApp,
  HttpConfig,
  NodeWebhookTransport,
  type RefusedRequest,
  RequestMetricsLive
} from "@forms/adapters-http"
import {
  FolderFileStorage,
  FormSchemaCache,
  SqlOrganiserAccess,
  SqlOrganiserArtists,
  SqlOrganiserCatalog,
  SqlMessageLog,
  SqlOrganiserForms,
  SqlOutboxAdmin,
  SqlPortalPorts,
  SqlPorts,
  SqlRetention,
  SqlSubmissionRecords,
  SqlWebhookStore
} from "@forms/adapters-sql"
import {
  ArtistPortalLive,
  type DispatcherOptions,
  Engagements,
  FilesLive,
  FormAuthoringLive,
  FormSchemas,
  FormsConfig,
  OrganiserAccess,
  OrganiserLive,
  OrganiserMessagesLive,
  type OutboxSignal,
  PublicFormsLive,
  SubmissionsOutLive,
  VolunteerShiftsLive,
  WebhookEngine,
  type WebhookEngineOptions,
  WebhookSettings,
  WebhooksLive,
  type WebhookTransport
} from "@forms/domain"
import { baseUrlOf, formPageUrl, formUrl, portalPageUrl, portalUrl, type ServerConfig } from "./config.js"
import { Database, ServerReadiness } from "./database.js"
import { Events, type HandlersLayer, ServerOutboxSignal } from "./events.js"
import { demoApiKeys, demoForms, demoPortals, Startup, StartupLive } from "./startup.js"
import { BackupScheduler } from "./operations/BackupScheduler.js"
import { MetricsListener } from "./operations/MetricsListener.js"
import { MessageSender, messagesConfigOf } from "./messageSender.js"
import { RetentionSweeper } from "./retention.js"
import { tokenCipherLayer } from "./tokenKey.js"
import { ReminderSweeper } from "./reminderSweeper.js"
import { ServerWebAssets } from "./webAssets.js"

/** With DATABASE_URL, the schema cache of adapters-sql (its README: "Form schemas"); none on the embedded database. */
const schemaCacheLayer = (config: ServerConfig): Layer.Layer<FormSchemaCache> | Layer.Layer<never> =>
  config.databaseUrl === undefined ? Layer.empty : FormSchemaCache.listening({ url: config.databaseUrl })

const portOf = (address: NetAddress.SocketAddress): number =>
  address._tag === "UnixPathAddress" ? 0 : address.port

/**
 * The one start-up line: the address, and in demo mode the demo form and portal URLs whose tokens still
 * resolve (after `rotate-token` or `portal-link` the demo token is gone and its URL is not printed).
 */
const announce = (config: ServerConfig) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const { demo } = yield* Startup
    const schemas = yield* FormSchemas
    const engagements = yield* Engagements
    const access = yield* OrganiserAccess
    const base = baseUrlOf(config, portOf(server.address))
    const annotations: Record<string, string> = { address: HttpServer.formatAddress(server.address) }
    if (demo) {
      for (const form of demoForms) {
        const found = yield* schemas.findByToken(form.token).pipe(Effect.orElseSucceed(() => Option.none()))
        if (Option.isSome(found) && found.value.public_token === form.token) {
          annotations[`demo_${form.id}`] = formUrl(base, form.token)
          annotations[`demo_page_${form.id}`] = formPageUrl(base, form.token)
        }
      }
      for (const portal of demoPortals) {
        const found = yield* engagements.findByToken(portal.token).pipe(Effect.orElseSucceed(() => Option.none()))
        if (Option.isSome(found) && found.value.engagement.id === portal.id) {
          annotations[`demo_portal_${portal.id}`] = portalUrl(base, portal.token)
          annotations[`demo_portal_page_${portal.id}`] = portalPageUrl(base, portal.token)
        }
      }
      // Printed while it is valid: `api-key revoke` hides it from later starts.
      for (const key of demoApiKeys) {
        const found = yield* access.findApiKey(key).pipe(Effect.orElseSucceed(() => Option.none()))
        if (Option.isSome(found) && found.value.revoked_at === null) annotations["demo_organiser_key"] = key
      }
    }
    yield* Effect.logInfo("listening").pipe(Effect.annotateLogs(annotations))
    yield* Effect.addFinalizer(() => Effect.logInfo("stopping: no new connections, finishing requests in flight"))
  }))

/**
 * Node's HTTP server on the configured port. Requests its parser refuses (bad Content-Length, unknown method,
 * raw bytes above 0x7E in the path, headers over 16 KiB) are answered in the error envelope (BAD_REQUEST,
 * HEADERS_TOO_LARGE) and logged as a request line with no route, as every other answer is.
 */
const nodeServer = (config: ServerConfig) =>
  Layer.unwrap(Effect.gen(function*() {
    const context = yield* Effect.context<never>()
    const log = (refused: RefusedRequest) =>
      void Effect.runForkWith(context)(
        Effect.logInfo("request").pipe(Effect.annotateLogs({ ...refused, method: null, route: null }))
      )
    return NodeHttpServer.layer(() => {
      const server = createServer()
      server.on("clientError", (error, socket) => answerClientError(error, socket, log))
      answerUntilServed(server)
      return server
    }, {
      port: config.port,
      host: config.host,
      // On shutdown the server stops accepting and waits for requests in flight, up to 10 seconds.
      gracefulShutdownTimeout: Duration.seconds(10)
    })
  }))

/** The HTTP settings; the public base URL (the /openapi.json `servers`) is known once the port is bound. */
/**
 * The organiser routes' settings. Portal links are printed on PUBLIC_BASE_URL, else on the address the server
 * is bound to (as the CLI prints them): never on a request's `Host`, which a client chooses.
 */
const adminConfigLayer = (config: ServerConfig) =>
  Layer.unwrap(Effect.map(HttpServer.HttpServer, (server) =>
    AdminConfig.layer({
      limitPerMinute: config.adminRateLimitPerMinute,
      publicBaseUrl: baseUrlOf(config, portOf(server.address))
    })))

const httpConfigLayer = (config: ServerConfig) =>
  Layer.unwrap(Effect.map(HttpServer.HttpServer, (server) =>
    HttpConfig.layer({
      maxBodyBytes: config.maxBodyBytes,
      trustProxyHops: config.trustProxyHops,
      exemptNetworks: config.exemptNetworks,
      adminCorsOrigins: config.adminCorsOrigins,
      sizeLimits: {
        maxValuesKeys: config.maxValuesKeys,
        maxStringLength: config.maxStringLength,
        maxArrayItems: config.maxArrayItems
      },
      publicBaseUrl: baseUrlOf(config, portOf(server.address))
    })))

export interface ServerLayerOptions<E, EH = never> {
  /** Replaces the database of the configuration (tests: an in-memory PGlite, a schema of their own). */
  readonly database?: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E> | undefined
  /**
   * Replaces the OutboxSignal of the configuration (default: LISTEN/NOTIFY with DATABASE_URL, in-process
   * on the embedded database).
   */
  readonly outboxSignal?: Layer.Layer<OutboxSignal> | undefined
  /**
   * Replaces the form-schema cache of the configuration (default: LISTEN-backed with DATABASE_URL, none on
   * the embedded database). Give `Layer.empty` to read every schema from the database.
   */
  readonly schemaCache?: Layer.Layer<FormSchemaCache> | Layer.Layer<never> | undefined
  /** Event handlers of an embedding service, registered after the built-in ones (see README: Events). */
  readonly handlers?: ReadonlyArray<HandlersLayer<EH>> | undefined
  readonly dispatcher?: Partial<DispatcherOptions> | undefined
  /** The webhook delivery engine's poll interval, lease margin and caps (CONTRACT §13); the caps default to the configuration's. */
  readonly webhookEngine?: Partial<WebhookEngineOptions> | undefined
  /** Replaces how webhook messages leave the process (default: `NodeWebhookTransport.layer`). */
  readonly webhookTransport?: Layer.Layer<WebhookTransport> | undefined
}

const makeServerLayer = <E = never, EH = never>(
  config: ServerConfig,
  options: ServerLayerOptions<E, EH> = {}
) => {
  const database: Layer.Layer<
    PgClient.PgClient | SqlClient.SqlClient,
    E | Layer.Error<ReturnType<typeof Database.layer>>
  > = options.database ?? Database.layer(config)
  // One instance of every port, built over the signal (a step that records events wakes the dispatcher)
  // and the schema cache (the form lookups of every request).
  const Ports = Layer.mergeAll(
    SqlPorts.layer,
    SqlPortalPorts.layer,
    SqlOrganiserAccess.layer,
    SqlOrganiserCatalog.layer,
    SqlOrganiserArtists.layer,
    SqlSubmissionRecords.layer,
    SqlOutboxAdmin.layer,
    SqlRetention.layer,
    SqlWebhookStore.layer,
    SqlOrganiserForms.layer,
    SqlMessageLog.layer,
    FolderFileStorage.layer(config.filesDir),
    // Links in messages: their tokens sealed under TOKEN_KEY, or a key kept beside the data.
    tokenCipherLayer(config, options.database === undefined && config.databaseUrl === undefined)
  ).pipe(
    Layer.provideMerge(options.outboxSignal ?? ServerOutboxSignal.layer(config)),
    Layer.provide(options.schemaCache ?? schemaCacheLayer(config))
  )
  const webhookSettings = WebhookSettings.layer({
    retryScheduleMs: config.webhookRetryScheduleMs,
    timeoutMs: config.webhookTimeoutMs,
    allowPrivateTargets: config.webhookAllowPrivateTargets
  })
  // Webhook attempts run beside request handling, over Node's http/https; stopped before the database closes.
  const Webhooks = WebhookEngine.layer({
    concurrency: config.webhookConcurrency,
    endpointConcurrency: config.webhookEndpointConcurrency,
    organisationConcurrency: config.webhookOrganisationConcurrency,
    ...options.webhookEngine
  }).pipe(
    Layer.provide(options.webhookTransport ?? NodeWebhookTransport.layer),
    Layer.provide(webhookSettings)
  )
  const UseCases = Layer.mergeAll(
    PublicFormsLive.layer,
    ArtistPortalLive.layer,
    OrganiserLive.layer,
    FormAuthoringLive.layer,
    SubmissionsOutLive.layer,
    WebhooksLive.layer,
    FilesLive.layer,
    OrganiserMessagesLive.layer,
    VolunteerShiftsLive.layer
  ).pipe(
    Layer.provide(webhookSettings),
    Layer.provide(messagesConfigOf(config)),
    Layer.provide(FormsConfig.layer({
      tokenGraceSeconds: config.tokenGraceSeconds,
      submitLimitPerHour: config.submitRateLimitPerHour,
      portalLimitPerMinute: config.portalRateLimitPerMinute,
      writeLimitPerHour: config.writeRateLimitPerHour,
      uploadLimitPerHour: config.uploadRateLimitPerHour,
      uploadBytesPerDay: config.uploadBytesPerDay,
      fileMaxBytes: config.fileMaxBytes,
      fileMaxBytesPerSubmission: config.fileMaxBytesPerSubmission
    }))
  )
  // With METRICS_PORT, every answer is measured (the request histogram); without, the middleware records nothing.
  // Everything slow (the use cases, the embed bundle) is built before the port opens; only the settings that
  // need the bound address come after it.
  const Http = HttpApp.server.pipe(
    Layer.provide(config.metricsPort === undefined ? Layer.empty : RequestMetricsLive.layer),
    Layer.provide([adminConfigLayer(config), httpConfigLayer(config)]),
    Layer.provideMerge(nodeServer(config)),
    Layer.provide([UseCases, ServerReadiness.layer, ServerWebAssets.layer])
  )
  // Built in this order, released in the reverse one: the port closes first, then the dispatcher stops,
  // then the database closes.
  return announce(config).pipe(
    // Sends beside the port (its links point at the bound address); stopped before the port closes.
    Layer.provideMerge(MessageSender.layer(config)),
    Layer.provideMerge(Http),
    // The dispatcher starts after the migrations and the fixture.
    Layer.provideMerge(Events.layer(options.handlers ?? [], options.dispatcher ?? {})),
    Layer.provideMerge(RetentionSweeper.layer(config)),
    Layer.provideMerge(ReminderSweeper.layer(config)),
    // METRICS_PORT's listener and BACKUP_DIR's schedule (each nothing when unset).
    Layer.provideMerge(MetricsListener.layer(config)),
    Layer.provideMerge(BackupScheduler.layer(config)),
    Layer.provideMerge(Webhooks),
    Layer.provideMerge(StartupLive.layer(config)),
    Layer.provideMerge(Ports),
    Layer.provideMerge(database)
  )
}

/** `Server.layer(…)`. */
export const Server = { layer: makeServerLayer } as const
