/**
 * OTEL_EXPORTER_OTLP_ENDPOINT, on a server process sending to an OTLP/HTTP receiver on the loopback: one trace
 * per request, its server span named by the route template (an incoming traceparent continued), SQL spans with
 * their statements' text and never their parameters, no attribute, name or status holding a token, an id, a
 * value or an address, and a webhook attempt whose traceparent header names its own span.
 */
import { afterAll, describe, expect, it } from "vitest"
import { join } from "node:path"
import { admin, contactForm, fixtureWithKey, json, killAll, openForm, startServer, submitForm, tempDir } from "./operationsSupport.js"
import { OtlpReceiver, type ReceivedSpan } from "./otlpReceiver.js"
import { freePort, Receiver } from "./webhookReceiver.js"

afterAll(killAll)

const until = async (done: () => boolean, timeoutMs: number, what: string) => {
  const deadline = Date.now() + timeoutMs
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const everything = (span: ReceivedSpan): string =>
  [
    span.name,
    span.statusMessage,
    ...Object.entries(span.attributes).flatMap(([k, v]) => [k, String(v)]),
    ...span.events.flatMap((event) => [event.name, ...Object.values(event.attributes).map(String)])
  ].join("\n")

describe.each(["http/protobuf", "http/json"] as const)("traces over OTLP/HTTP (%s)", (protocol) => {
  it("one trace per request by route template, SQL text without parameters, a webhook attempt's traceparent", async () => {
    const collector = new OtlpReceiver()
    await collector.start()
    const hooks = new Receiver(await freePort())
    await hooks.start()
    const server = startServer({
      DATA_DIR: join(tempDir("forms-traces-"), "data"),
      FIXTURE_FILE: fixtureWithKey(),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_SERVICE_NAME: "forms-under-test",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      WEBHOOK_RETRY_SCHEDULE: ""
    })
    try {
      const base = (await server.waitFor("listening"))["address"] ?? ""
      const created = await admin(base, "POST", "/admin/webhooks", { url: hooks.url, event_types: ["submission.submitted"] })
      expect(created.status).toBe(201)
      const webhook = (await json(created)).data
      const webhookId = String(webhook["id"])
      const secret = String(webhook["secret"])
      expect(secret).toMatch(/^whsec_/)
      expect((await admin(base, "GET", `/admin/webhooks/${webhookId}`)).status).toBe(200)

      // An incoming trace context is continued.
      const incomingTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
      const incomingSpan = "00f067aa0ba902b7"
      const form = await fetch(base + openForm, { headers: { traceparent: `00-${incomingTrace}-${incomingSpan}-01` } })
      expect(form.status).toBe(200)
      await form.arrayBuffer()
      const missingToken = `missing-token-${Date.now()}-abcdef`
      expect((await fetch(`${base}/public/forms/${missingToken}?secret=${missingToken}`)).status).toBe(404)
      const key = `traces-${Date.now()}-0123456789abcdef`
      const email = `traced.person.${Date.now()}@example.org`
      const { status, id } = await submitForm(base, contactForm, key, { email, interest: null })
      expect(status).toBe(200)
      await until(() => hooks.received.length > 0, 60_000, "the webhook delivery")
      // Stopped, the server sends the spans it still holds.
      expect(await server.stop()).toBe(0)
      const serverSpans = () => collector.spans.filter((s) => s.kind === 2)
      await until(() => collector.spans.some((s) => s.name === "WebhookEngine.attempt") && serverSpans().length >= 5, 30_000, "the spans")

      expect(collector.contentTypes[0]).toBe(protocol === "http/json" ? "application/json" : "application/x-protobuf")
      expect(collector.spans[0]?.resource["service.name"]).toBe("forms-under-test")

      // One server span per request, each the root of its own trace, named by its route template.
      const requests = serverSpans()
      expect(requests.map((s) => s.name).sort()).toEqual([
        "GET /admin/webhooks/:webhookId",
        "GET /public/forms/:token",
        "GET /public/forms/:token",
        "POST /admin/webhooks",
        "POST /public/forms/:token/submissions",
        "POST /public/forms/:token/submissions/:submissionId/submit"
      ].sort())
      expect(new Set(requests.map((s) => s.traceId)).size).toBe(requests.length)
      for (const span of requests) {
        expect(Object.keys(span.attributes).sort()).toEqual(["http.request.method", "http.response.status_code", "http.route"])
        expect(span.name).toBe(`${span.attributes["http.request.method"]} ${span.attributes["http.route"]}`)
      }
      const continued = requests.find((s) => s.traceId === incomingTrace)
      expect(continued?.parentSpanId).toBe(incomingSpan)
      expect(continued?.attributes["http.response.status_code"]).toBe(200)
      const notFound = requests.find((s) => s.attributes["http.response.status_code"] === 404)
      expect(notFound?.attributes["http.route"]).toBe("/public/forms/:token")

      // SQL statements: their text, in the trace of the request that ran them; parameters never.
      const submitSpan = requests.find((s) => s.name.endsWith("/submit"))
      const sql = collector.spans.filter((s) => typeof s.attributes["db.query.text"] === "string")
      expect(sql.length).toBeGreaterThan(3)
      expect(sql.some((s) => s.traceId === submitSpan?.traceId)).toBe(true)
      expect(sql.some((s) => String(s.attributes["db.query.text"]).includes("$1"))).toBe(true)

      // The webhook attempt: its own span, named in the traceparent the receiver got.
      const attempt = collector.spans.find((s) => s.name === "WebhookEngine.attempt")
      expect(attempt?.kind).toBe(3)
      expect(hooks.received[0]?.headers["traceparent"]).toBe(`00-${attempt?.traceId}-${attempt?.spanId}-01`)

      // Nothing leaves with a token, a key, an id, a value or an address; no log line rides along as an event (a
      // failed span's one event is its exception, described by class and code).
      const secrets = [
        "test-open-token-0001", "test-contact-token-0001", missingToken, key, email, id, webhookId, secret, hooks.url,
        "127.0.0.1", "example.org", "fok_"
      ]
      for (const span of collector.spans) {
        const text = everything(span)
        for (const value of secrets) expect(text, `${span.name} holds ${value}`).not.toContain(value)
        expect(span.events.every((event) => event.name === "exception")).toBe(true)
        for (const name of Object.keys(span.attributes)) expect(name).not.toMatch(/^(url\.|client\.|user_agent|http\.url)/)
      }
    } finally {
      await server.stop()
      await hooks.stop()
      await collector.stop()
    }
  }, 240_000)
})
