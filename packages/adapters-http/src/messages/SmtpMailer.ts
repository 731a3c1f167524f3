/**
 * The `Mailer` port over SMTP with `nodemailer`, configured by a URL: `smtp://user:pass@host:587` (STARTTLS when
 * the server offers it) or `smtps://user:pass@host:465` (implicit TLS). One connection per mail (no pool held
 * between sweeps), each phase of it ended after `timeoutMs` of silence and the whole attempt after three times
 * that. The envelope names exactly the one checked address; the `Message-ID` is the one the domain gives, the same
 * on every attempt. An answer is reduced to its SMTP code or the connection's error code: never the server's text,
 * which may echo an address.
 */
import { Effect, Layer } from "effect"
import { createTransport } from "nodemailer"
import { Mailer, type MailOutcome, type OutgoingMail } from "@forms/domain"

export interface SmtpMailerOptions {
  /** `smtp://…` or `smtps://…` (user and password in the URL, percent-encoded). */
  readonly url: string
  /** Silence after which a connection, greeting or socket is given up (ms). */
  readonly timeoutMs: number
  /** Extra TLS settings (a test's own certificate authority). */
  readonly tls?: { readonly ca?: string | Buffer; readonly servername?: string }
}

/** What an SMTP attempt's error means: a 5xx refuses for good; a 4xx, a time-out or a lost connection may pass later. */
export const outcomeOfError = (error: unknown): MailOutcome => {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {}
  const responseCode = typeof record["responseCode"] === "number" ? record["responseCode"] : undefined
  const code = typeof record["code"] === "string" ? record["code"] : "unknown"
  if (responseCode !== undefined && responseCode >= 500 && responseCode < 600) {
    return { _tag: "Permanent", reason: `SMTP ${responseCode}` }
  }
  if (responseCode !== undefined) return { _tag: "Temporary", reason: `SMTP ${responseCode}` }
  return { _tag: "Temporary", reason: code === "ETIMEDOUT" ? "time-out" : `connection: ${code}` }
}

/** The address of `Name <address>` or of a bare address. */
const addressOf = (from: string): string => {
  const match = /<([^<>\s]+)>\s*$/.exec(from)
  return match === null ? from.trim() : (match[1] as string)
}

// Never a header from unchecked input: the domain's subjects are one line already; this holds whatever comes.
const oneLine = (text: string): string => text.replace(/[\r\n\u2028\u2029]/g, " ")

export const makeSmtpMailer = (options: SmtpMailerOptions) => {
  const url = new URL(options.url)
  const secure = url.protocol === "smtps:"
  const transport = createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port === "" ? (secure ? 465 : 587) : Number(url.port),
    secure,
    ...(url.username === "" ? {} : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(options.tls === undefined ? {} : { tls: { ...options.tls } })
  })
  const send = (mail: OutgoingMail): Effect.Effect<MailOutcome> =>
    Effect.tryPromise({
      try: () =>
        transport.sendMail({
          from: mail.from,
          to: { name: "", address: mail.to },
          envelope: { from: addressOf(mail.from), to: [mail.to] },
          subject: oneLine(mail.subject),
          text: mail.text,
          messageId: mail.messageId
        }),
      catch: (error) => error
    }).pipe(
      Effect.as<MailOutcome>({ _tag: "Sent" }),
      Effect.timeoutOrElse({
        duration: options.timeoutMs * 3,
        orElse: () => Effect.succeed<MailOutcome>({ _tag: "Temporary", reason: "time-out" })
      }),
      Effect.catch((error) => Effect.succeed(outcomeOfError(error))),
      // One client span per attempt (OpenTelemetry, when tracing is on): how it ended, never an address or a subject.
      Effect.tap((outcome) => Effect.annotateCurrentSpan("mail.outcome", outcome._tag.toLowerCase())),
      Effect.withSpan("SmtpMailer.send", { kind: "client" })
    )
  return Mailer.of({ send })
}

export const SmtpMailer = {
  layer: (options: SmtpMailerOptions) => Layer.sync(Mailer, () => makeSmtpMailer(options))
} as const
