/**
 * SMTP sends in the traces: a server process with OTEL_EXPORTER_OTLP_ENDPOINT and SMTP_URL (a real SMTP server on
 * the loopback, STARTTLS with a certificate the process trusts) sends a confirmation; the collector receives one
 * client span `SmtpMailer.send` per attempt, a child of the sender's sweep, with `mail.outcome` and nothing that
 * holds the address, the subject or the body.
 */
import { afterAll, describe, expect, it } from "vitest"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { admin, fixtureWithKey, json, killAll, startServer, submitForm, tempDir } from "./operationsSupport.js"
import { OtlpReceiver, type ReceivedSpan } from "./otlpReceiver.js"
import { startSmtpReceiver } from "./smtpReceiver.js"

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

describe("SMTP sends in the traces", () => {
  it("one client span SmtpMailer.send per attempt, under the sender's sweep, with its outcome and no address", async () => {
    const collector = new OtlpReceiver()
    await collector.start()
    const smtp = await startSmtpReceiver()
    const dir = tempDir("forms-traces-smtp-")
    const certFile = join(dir, "smtp-cert.pem")
    writeFileSync(certFile, smtp.cert)
    const server = startServer({
      DATA_DIR: join(dir, "data"),
      FIXTURE_FILE: fixtureWithKey(),
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Festival <noreply@festival.example>",
      NODE_EXTRA_CA_CERTS: certFile
    })
    try {
      const base = (await server.waitFor("listening"))["address"] ?? ""
      const subject = `Traced subject ${Date.now()}`
      const created = await admin(base, "POST", "/admin/forms", {
        name: "Traced crew",
        type: "volunteer",
        event_id: null,
        status: "published",
        fields: [{ slug: "email", label: "Email", type: "email", position: 1 }],
        messages: { confirmation: { to_field: "email", subject, body: "Body {{email}}" } }
      })
      expect(created.status).toBe(201)
      const token = String((await json(created)).data["public_token"])
      const email = `traced.mail.${Date.now()}@example.org`
      const { status } = await submitForm(base, `/public/forms/${token}`, `smtp-trace-${Date.now()}-0123456789abcdef`, { email })
      expect(status).toBe(200)
      await until(() => smtp.received.length > 0, 60_000, "the mail")
      expect(smtp.received[0]?.secure).toBe(true)
      expect(smtp.received[0]?.mail.subject).toBe(subject)
      expect(await server.stop()).toBe(0)
      await until(() => collector.spans.some((s) => s.name === "SmtpMailer.send"), 30_000, "the SMTP span")

      const sends = collector.spans.filter((s) => s.name === "SmtpMailer.send")
      expect(sends).toHaveLength(1)
      const send = sends[0] as ReceivedSpan
      expect(send.kind).toBe(3)
      expect(send.attributes).toEqual({ "mail.outcome": "sent" })
      const parent = collector.spans.find((s) => s.spanId === send.parentSpanId)
      expect(parent?.name).toBe("messages.sendDue")
      expect(parent?.traceId).toBe(send.traceId)
      // No span holds the address, the subject or the body.
      for (const span of collector.spans) {
        const text = everything(span)
        expect(text).not.toContain(email)
        expect(text).not.toContain(subject)
        expect(text).not.toContain("Body ")
      }
    } finally {
      if (server.child.exitCode === null) await server.stop()
      await smtp.close()
      await collector.stop()
    }
  }, 240_000)
})
