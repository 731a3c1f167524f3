/**
 * OTEL_EXPORTER_OTLP_ENDPOINT: traces over OTLP/HTTP with Effect's own exporter (`effect/observability/OtlpTracer`,
 * protobuf or JSON), batched every 5 s. Loaded only when tracing is on (main.ts imports this module then).
 *
 * Every span passes a filter before it leaves the process: only the attributes named below are kept (Effect and
 * its SQL client add others, some of which could carry a path, a header or an address), span events (log lines)
 * are dropped, and a failure is reported by its error's class, reason and code only, never its message or stack:
 * a driver's message may quote a statement's values.
 */
import { Cause, Effect, Exit, Layer, Redacted, Tracer } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as OtlpExporter from "effect/observability/OtlpExporter"
import * as OtlpSerialization from "effect/observability/OtlpSerialization"
import * as OtlpTracer from "effect/observability/OtlpTracer"
import { describeError } from "@forms/adapters-http"
import type { TracingConfig } from "../config.js"

/** The attributes a span may carry out of the process: names of things, never values. */
export const allowedAttributes: ReadonlySet<string> = new Set([
  // requests (the request middleware's span): the route template, never the path
  "http.request.method",
  "http.route",
  "http.response.status_code",
  // SQL statements (effect/sql): the statement's text with its placeholders, never the parameters
  "db.system.name",
  "db.namespace",
  "db.query.text",
  "db.client.connection.wait_time_ms",
  "server.address",
  "server.port",
  // events and webhooks: fixed names
  "event.type",
  "webhook.outcome",
  // SMTP sends: sent, temporary or permanent
  "mail.outcome"
])

/** A failure as its class, reason and code, with no message or stack of its own. */
class SpanFailure extends Error {
  constructor(description: string) {
    super(description)
    this.name = "SpanFailure"
    this.stack = `SpanFailure: ${description}`
  }
}

const describeFailure = (cause: Cause.Cause<unknown>): string => {
  const first = describeError(Cause.squash(cause))
  return [first.error, first.reason, first.code].filter((part) => part !== undefined).join(" ")
}

const sanitizedExit = (exit: Exit.Exit<unknown, unknown>): Exit.Exit<unknown, unknown> =>
  Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? exit : Exit.fail(new SpanFailure(describeFailure(exit.cause)))

/** The span as exported: the allowed attributes, no events, a described failure. */
class FilteredSpan implements Tracer.Span {
  readonly _tag = "Span"
  constructor(readonly inner: Tracer.Span) {}
  get name() {
    return this.inner.name
  }
  get spanId() {
    return this.inner.spanId
  }
  get traceId() {
    return this.inner.traceId
  }
  get parent() {
    return this.inner.parent
  }
  get annotations() {
    return this.inner.annotations
  }
  get status() {
    return this.inner.status
  }
  get attributes() {
    return this.inner.attributes
  }
  get links() {
    return this.inner.links
  }
  get sampled() {
    return this.inner.sampled
  }
  get kind() {
    return this.inner.kind
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.inner.end(endTime, sanitizedExit(exit))
  }
  attribute(key: string, value: unknown): void {
    if (allowedAttributes.has(key)) this.inner.attribute(key, value)
  }
  event(): void {}
  addLinks(links: ReadonlyArray<Tracer.SpanLink>): void {
    this.inner.addLinks(links)
  }
}

/** Wraps a tracer so that every span it makes is filtered. */
export const filteredTracer = (inner: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    span(options) {
      const span = inner.span(options)
      // The allowed attributes given at creation (`withSpan`'s options) reach the span through `attribute`.
      return new FilteredSpan(span)
    },
    ...(inner.context === undefined ? {} : { context: inner.context })
  })

/** The tracer of the configuration, provided to the whole program; its exporter flushes when it is released. */
export const tracingLayer = (config: TracingConfig): Layer.Layer<never> =>
  Layer.effect(
    Tracer.Tracer,
    Effect.map(
      OtlpTracer.make({
        url: `${config.endpoint}/v1/traces`,
        resource: { serviceName: config.serviceName, attributes: { ...config.resourceAttributes } },
        headers: { ...Redacted.value(config.headers) }
      }),
      filteredTracer
    )
  ).pipe(
    Layer.provide(OtlpExporter.layerFlusher),
    Layer.provide(config.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
    Layer.provide(FetchHttpClient.layer)
  ) as Layer.Layer<never>
