/** An in-process server on a free port, and a raw fetch helper that keeps the exact bytes. */
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import { createServer } from "node:http"
import { AdminConfig, HttpApp, HttpConfig, type HttpConfigShape, Readiness } from "../src/index.js"
import {
  type ArtistPortal,
  type Files,
  FilesLive,
  FormsConfig,
  type FormAuthoring,
  FormAuthoringLive,
  type Organiser,
  OrganiserLive,
  type OrganiserMessages,
  OrganiserMessagesLive,
  type PublicForms,
  type RateLimiter,
  type SubmissionsOut,
  SubmissionsOutLive,
  type VolunteerShifts,
  VolunteerShiftsLive,
  type Webhooks,
  WebhookSettings,
  WebhooksLive
} from "@forms/domain"
import {
  InMemory,
  InMemoryFileStorage,
  InMemoryMessageLog,
  InMemoryOrganiser,
  InMemoryOrganiserForms,
  InMemoryStore,
  InMemorySubmissionsOut,
  InMemoryWebhookStore
} from "@forms/domain/memory"
import { conformanceSeed } from "@forms/domain/testing"
import { FakeArtistPortal } from "./FakeArtistPortal.js"

export const serverLayer = (
  publicForms: Layer.Layer<PublicForms>,
  options: {
    readonly config?: Partial<HttpConfigShape>
    readonly readiness?: Layer.Layer<Readiness>
    readonly portal?: Layer.Layer<ArtistPortal>
    /** The organiser side (default: the use cases over the in-memory ports, the in-memory limiter). */
    readonly admin?: Layer.Layer<Organiser | SubmissionsOut | RateLimiter | AdminConfig>
    /** The webhook use cases (default: over the in-memory webhook store). */
    readonly webhooks?: Layer.Layer<Webhooks>
    /** Form authoring (default: the use cases over in-memory ports of their own). */
    readonly forms?: Layer.Layer<FormAuthoring>
    /** Uploads (default: the use cases over in-memory ports of their own). */
    readonly files?: Layer.Layer<Files>
    /** The organiser's messages (default: over in-memory ports of their own). */
    readonly messages?: Layer.Layer<OrganiserMessages>
    /** A volunteer's own shifts (default: the use cases over in-memory ports of their own). */
    readonly shifts?: Layer.Layer<VolunteerShifts>
  } = {}
) =>
  HttpApp.server.pipe(
    Layer.provide([
      publicForms,
      options.portal ?? FakeArtistPortal,
      HttpConfig.layer(options.config),
      options.readiness ?? Readiness.layerAlways,
      options.admin ?? inMemoryAdmin(),
      options.webhooks ?? inMemoryWebhooks,
      options.forms ?? FormAuthoringLive.layer.pipe(Layer.provide([InMemoryOrganiserForms.layer, FormsConfig.layer()])),
      options.files ?? inMemoryFiles(),
      options.messages ?? inMemoryMessages,
      options.shifts ?? inMemoryShifts()
    ]),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )

/** The organiser use cases over fresh in-memory ports, the in-memory limiter, and `AdminConfig`. */
export const inMemoryAdmin = (limitPerMinute = 600): Layer.Layer<Organiser | SubmissionsOut | RateLimiter | AdminConfig> =>
  Layer.mergeAll(
    OrganiserLive.layer.pipe(Layer.provide(InMemoryOrganiser.layer)),
    SubmissionsOutLive.layer.pipe(Layer.provide(InMemorySubmissionsOut.layer)),
    AdminConfig.layer({ limitPerMinute })
  ).pipe(Layer.provideMerge(InMemory.layer())) // one store: the organiser and submissions-out ports share it

/** The use cases of a volunteer's own shifts over fresh in-memory ports of their own. */
export const inMemoryShifts = (seed = conformanceSeed): Layer.Layer<VolunteerShifts> =>
  VolunteerShiftsLive.layer.pipe(Layer.provide(FormsConfig.layer()), Layer.provide(InMemory.layer(seed)))

/** The upload use cases over fresh in-memory ports of their own. */
export const inMemoryFiles = (seed = conformanceSeed): Layer.Layer<Files> =>
  FilesLive.layer.pipe(
    Layer.provide(Layer.mergeAll(InMemoryFileStorage.layer, FormsConfig.layer())),
    Layer.provide(InMemory.layer(seed))
  )

/** The organiser's message use cases over a fresh in-memory store. */
export const inMemoryMessages: Layer.Layer<OrganiserMessages> = OrganiserMessagesLive.layer.pipe(
  Layer.provide(InMemoryMessageLog.layer),
  Layer.provide(InMemoryStore.layer(conformanceSeed))
)

/** The webhook use cases over a fresh in-memory webhook store. */
export const inMemoryWebhooks: Layer.Layer<Webhooks> = WebhooksLive.layer.pipe(
  Layer.provide(InMemoryWebhookStore.layer),
  Layer.provide(InMemoryStore.layer(conformanceSeed)),
  Layer.provide(WebhookSettings.layer())
)

export const baseUrl = Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))

export interface RawResponse {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

export interface RawRequest {
  readonly method?: string
  readonly body?: string | Uint8Array | ReadableStream<Uint8Array>
  readonly headers?: Record<string, string>
}

export const call = (path: string, init: RawRequest = {}) =>
  Effect.flatMap(baseUrl, (base) =>
    Effect.promise(async (): Promise<RawResponse> => {
      const response = await fetch(base + path, {
        method: init.method ?? "GET",
        headers: init.headers ?? {},
        ...(init.body === undefined ? {} : { body: init.body }),
        ...(init.body instanceof ReadableStream ? { duplex: "half" } : {})
      } as RequestInit)
      return { status: response.status, headers: response.headers, text: await response.text() }
    }))

export const json = (method: string, body: unknown, headers: Record<string, string> = {}): RawRequest => ({
  method,
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...headers }
})

export const envelope = (code: string, message: string, fields?: unknown) =>
  JSON.stringify({ error: fields === undefined ? { code, message } : { code, message, fields } })
