/**
 * An OTLP/HTTP trace receiver on the loopback for the tests: accepts `POST /v1/traces` in protobuf (decoded with
 * protobufjs and the part of OpenTelemetry's trace.proto it needs) or JSON, and keeps every span with hex ids.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import protobuf from "protobufjs"

// Field numbers of opentelemetry/proto/collector/trace/v1 and trace/v1 (the members read here).
const traceProto = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { Scope scope = 1; repeated Span spans = 2; }
message Scope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5;
  int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9;
  repeated Event events = 11; Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; }
}
message ArrayValue { repeated AnyValue values = 1; }
`
const request = protobuf.parse(traceProto).root.lookupType("otlp.ExportTraceServiceRequest")

export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId: string
  readonly name: string
  /** 2: server, 3: client. */
  readonly kind: number
  readonly attributes: Readonly<Record<string, string | number | boolean>>
  readonly events: ReadonlyArray<{ readonly name: string; readonly attributes: Readonly<Record<string, string | number | boolean>> }>
  readonly statusMessage: string
  readonly resource: Readonly<Record<string, string | number | boolean>>
}

type Decoded = Record<string, unknown>

const hex = (value: unknown): string =>
  value instanceof Uint8Array ? Buffer.from(value).toString("hex") : typeof value === "string" ? value.toLowerCase() : ""

const scalar = (value: Decoded | undefined): string | number | boolean => {
  if (value === undefined) return ""
  for (const key of ["stringValue", "boolValue", "intValue", "doubleValue"]) {
    const v = value[key]
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return key === "intValue" ? Number(v) : v
  }
  return JSON.stringify(value)
}

const attributesOf = (list: unknown): Record<string, string | number | boolean> => {
  const out: Record<string, string | number | boolean> = {}
  for (const kv of (Array.isArray(list) ? list : []) as Array<Decoded>) out[String(kv["key"])] = scalar(kv["value"] as Decoded | undefined)
  return out
}

const spansOf = (body: Decoded): ReadonlyArray<ReceivedSpan> =>
  ((body["resourceSpans"] ?? []) as Array<Decoded>).flatMap((rs) => {
    const resource = attributesOf((rs["resource"] as Decoded | undefined)?.["attributes"])
    return ((rs["scopeSpans"] ?? []) as Array<Decoded>).flatMap((ss) =>
      ((ss["spans"] ?? []) as Array<Decoded>).map((span) => ({
        traceId: hex(span["traceId"]),
        spanId: hex(span["spanId"]),
        parentSpanId: hex(span["parentSpanId"]),
        name: String(span["name"] ?? ""),
        kind: Number(span["kind"] ?? 0),
        attributes: attributesOf(span["attributes"]),
        events: ((span["events"] ?? []) as Array<Decoded>).map((event) => ({
          name: String(event["name"] ?? ""),
          attributes: attributesOf(event["attributes"])
        })),
        statusMessage: String((span["status"] as Decoded | undefined)?.["message"] ?? ""),
        resource
      })))
  })

export class OtlpReceiver {
  readonly spans: Array<ReceivedSpan> = []
  readonly contentTypes: Array<string> = []
  private server: Server | undefined
  url = ""

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Array<Buffer> = []
      req.on("data", (c: Buffer) => chunks.push(c))
      req.on("end", () => {
        const body = Buffer.concat(chunks)
        const type = req.headers["content-type"] ?? ""
        this.contentTypes.push(type)
        if (req.url !== "/v1/traces") {
          res.writeHead(404).end()
          return
        }
        const decoded: Decoded = type.includes("json")
          ? JSON.parse(body.toString("utf8")) as Decoded
          : request.toObject(request.decode(body), { longs: String }) as Decoded
        this.spans.push(...spansOf(decoded))
        res.writeHead(200, { "content-type": type }).end(type.includes("json") ? "{}" : undefined)
      })
    })
    this.server = server
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  }

  stop(): Promise<void> {
    const server = this.server
    if (server === undefined) return Promise.resolve()
    server.closeAllConnections()
    return new Promise((resolve) => server.close(() => resolve()))
  }
}
