/**
 * The sender end to end: messages on the database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) sent
 * with the SMTP adapter to a real SMTP server on the loopback, read back with a real parser.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SmtpMailer } from "@forms/adapters-http"
import { EmbeddedPg, Migrations, PgLive, SqlMessageRows } from "@forms/adapters-sql"
import { MessageRows, messagesConfigLayer, sendDueMessages } from "@forms/domain"
import { backends, reportSkippedPostgres } from "./backends.js"
import { testDatabaseUrl } from "./harness.js"
import { startSmtpReceiver } from "./smtpReceiver.js"

const organisation = "org-mail"

/** A database of its own: PGlite in memory, or a schema of its own with one connection (so a held one shows). */
const database = (backend: string) => {
  if (backend === "embedded") return EmbeddedPg.layer()
  const url = testDatabaseUrl as string
  const schema = `forms_mail_${Date.now()}_${Math.floor(Math.random() * 1e6)}`
  const once = (statement: string) =>
    Effect.gen(function*() {
      const sql = yield* PgClient.PgClient
      yield* sql.unsafe(statement)
    }).pipe(Effect.provide(PgLive.layer({ url, maxConnections: 1 })))
  return Layer.unwrap(Effect.gen(function*() {
    yield* Effect.acquireRelease(once(`CREATE SCHEMA ${schema}`), () => Effect.ignore(once(`DROP SCHEMA ${schema} CASCADE`)))
    return PgLive.layer({ url, searchPath: schema, maxConnections: 1 })
  }))
}

/** A pending message due now; answers its id. */
const pending = (to: string, subject: string, body: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO organisations (id, name) VALUES (${organisation}, 'Mail') ON CONFLICT DO NOTHING`
    yield* sql`UPDATE messages SET status = 'failed' WHERE status = 'pending'`
    const [row] = yield* sql<{ readonly id: string }>`INSERT INTO messages (organisation_id, kind, to_address, subject, body, status, due_at, created_at)
      VALUES (${organisation}, 'confirmation', ${to}, ${subject}, ${body}, 'pending', now() - interval '1 second', now())
      RETURNING id::text AS id`
    return (row as { readonly id: string }).id
  })

const from = "Festival <noreply@example.org>"

for (const backend of backends) {
  describe(`messages sent over SMTP (${backend})`, () => {
    const base = Layer.mergeAll(SqlMessageRows.layer).pipe(Layer.provideMerge(Migrations.layer), Layer.provideMerge(database(backend)))

    const withSender = (port: number, cert: string, options: { readonly secure?: boolean; readonly timeoutMs?: number; readonly retrySchedule?: ReadonlyArray<number> } = {}) =>
      Layer.mergeAll(
        SmtpMailer.layer({
          url: `${options.secure === true ? "smtps" : "smtp"}://127.0.0.1:${port}`,
          timeoutMs: options.timeoutMs ?? 5_000,
          tls: { ca: cert, servername: "localhost" }
        }),
        messagesConfigLayer({ sending: true, from, retrySchedule: options.retrySchedule ?? [0] })
      )

    it.live("a message is sent once over STARTTLS: subject, text, envelope and its Message-ID", () =>
      Effect.gen(function*() {
        const smtp = yield* Effect.promise(() => startSmtpReceiver())
        const id = yield* pending("ada@example.org", "Bevestiging – ✓ Ada", "Hallo Ada,\nName: Ada")
        const sent = yield* sendDueMessages().pipe(Effect.provide(withSender(smtp.port, smtp.cert)))
        yield* Effect.promise(() => smtp.close())
        expect(sent).toBe(1)
        expect(smtp.received.length).toBe(1)
        const [got] = smtp.received
        expect(got?.secure).toBe(true)
        expect(got?.envelopeTo).toEqual(["ada@example.org"])
        expect(got?.mail.subject).toBe("Bevestiging – ✓ Ada")
        expect(got?.mail.text?.trimEnd()).toBe("Hallo Ada,\nName: Ada")
        expect(got?.mail.messageId).toBe(`<${id}@example.org>`)
        expect(got?.mail.from?.value[0]?.address).toBe("noreply@example.org")
        expect(yield* (yield* MessageRows).find(id)).toMatchObject({ status: "sent", attempts: 1 })
      }).pipe(Effect.provide(base)), 120_000)

    it.live("451 then 250: one message after a retry, the same Message-ID on both attempts; 550 fails at once", () =>
      Effect.gen(function*() {
        const smtp = yield* Effect.promise(() => startSmtpReceiver())
        const sender = withSender(smtp.port, smtp.cert)
        smtp.script.push(451)
        const id = yield* pending("bob@example.org", "Hi", "Body")
        yield* sendDueMessages().pipe(Effect.provide(sender))
        expect(yield* (yield* MessageRows).find(id)).toMatchObject({ status: "pending", attempts: 1, last_error: "SMTP 451" })
        yield* sendDueMessages().pipe(Effect.provide(sender))
        expect(yield* (yield* MessageRows).find(id)).toMatchObject({ status: "sent", attempts: 2 })
        expect(smtp.received.length).toBe(1)
        expect(smtp.messageIds).toEqual([`<${id}@example.org>`, `<${id}@example.org>`])

        smtp.script.push(550)
        const refused = yield* pending("nobody@example.org", "Hi", "Body")
        yield* sendDueMessages().pipe(Effect.provide(sender))
        yield* sendDueMessages().pipe(Effect.provide(sender))
        expect(yield* (yield* MessageRows).find(refused)).toMatchObject({ status: "failed", attempts: 1, last_error: "SMTP 550" })
        expect(smtp.attempts).toBe(3)
        yield* Effect.promise(() => smtp.close())
      }).pipe(Effect.provide(base)), 120_000)

    it.live("a server that never answers: the attempt ends by time-out, holding no database connection meanwhile", () =>
      Effect.gen(function*() {
        const smtp = yield* Effect.promise(() => startSmtpReceiver())
        smtp.script.push("hang")
        const id = yield* pending("carol@example.org", "Hi", "Body")
        const sql = yield* SqlClient.SqlClient
        const sweep = yield* Effect.forkChild(sendDueMessages().pipe(Effect.provide(withSender(smtp.port, smtp.cert, { timeoutMs: 1_500 }))))
        // Wait until the mail server is being waited on, then use the database (one connection on PostgreSQL).
        while (smtp.attempts === 0) yield* Effect.sleep("20 millis")
        const during = yield* sql`SELECT status FROM messages WHERE id = ${id}::uuid`.pipe(Effect.timeout("1 second"))
        expect(during).toEqual([{ status: "pending" }])
        yield* Fiber.join(sweep)
        expect(yield* (yield* MessageRows).find(id)).toMatchObject({ status: "pending", attempts: 1, last_error: "time-out" })
        yield* Effect.promise(() => smtp.close())
      }).pipe(Effect.provide(base)), 120_000)

    it.live("smtps:// sends with implicit TLS", () =>
      Effect.gen(function*() {
        const smtp = yield* Effect.promise(() => startSmtpReceiver({ secure: true }))
        const id = yield* pending("dan@example.org", "Hi", "Body")
        yield* sendDueMessages().pipe(Effect.provide(withSender(smtp.port, smtp.cert, { secure: true })))
        yield* Effect.promise(() => smtp.close())
        expect(smtp.received.map((r) => [r.secure, r.mail.messageId])).toEqual([[true, `<${id}@example.org>`]])
      }).pipe(Effect.provide(base)), 120_000)
  })
}
reportSkippedPostgres("messages sent over SMTP")
