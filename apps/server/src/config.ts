/** The server's configuration (docs/configuration.md), read from environment variables and validated as a whole. */
import { Redacted, Result } from "effect"
import { join, resolve } from "node:path"
import { type ExemptNetworks, parseExemptNetworks, tokenKeyOf } from "@forms/adapters-http"
import { defaultWebhookEngineOptions, defaultWebhookSettings, parseRetrySchedule } from "@forms/domain"
import { parseAdminCorsOrigins } from "./adminCorsOrigins.js"

export type LogLevelName = "debug" | "info" | "warn" | "error"

export interface ServerConfig {
  readonly port: number
  readonly host: string
  /** Unset: the embedded PostgreSQL (PGlite) in `dataDir`. */
  readonly databaseUrl: Redacted.Redacted<string> | undefined
  readonly dataDir: string
  readonly fixtureFile: string | undefined
  readonly tokenGraceSeconds: number
  readonly submitRateLimitPerHour: number
  readonly portalRateLimitPerMinute: number
  readonly writeRateLimitPerHour: number
  /** UPLOAD_RATE_LIMIT_PER_HOUR: uploads per client per form (policy `upload`). */
  readonly uploadRateLimitPerHour: number
  /** UPLOAD_BYTES_PER_DAY: bytes of stored uploads per client per form and sliding day (policy `upload_bytes`). */
  readonly uploadBytesPerDay: number
  /** FILE_MAX_BYTES: the largest upload any file field takes; FILE_MAX_BYTES_PER_SUBMISSION: all of one submission's. */
  readonly fileMaxBytes: number
  readonly fileMaxBytesPerSubmission: number
  /** RATE_LIMIT_EXEMPT_NETWORKS: clients no client limit counts. */
  readonly exemptNetworks: ExemptNetworks
  /** The organiser routes' limit per API key (CONTRACT §8 `admin`). */
  readonly adminRateLimitPerMinute: number
  /** ADMIN_CORS_ORIGINS: browser origins allowed on organiser routes. */
  readonly adminCorsOrigins: ReadonlyArray<string>
  readonly maxBodyBytes: number
  readonly trustProxyHops: number
  readonly maxValuesKeys: number
  readonly maxStringLength: number
  readonly maxArrayItems: number
  /** Without a trailing slash. Unset: `http://HOST:PORT` (the bound port when PORT is 0). */
  readonly publicBaseUrl: string | undefined
  readonly logLevel: LogLevelName
  /** DRAFT_RETENTION_DAYS and OUTBOX_RETENTION_DAYS (CONTRACT §12): the retention sweep's windows. */
  readonly draftRetentionDays: number
  readonly outboxRetentionDays: number
  /** WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_SCHEDULE (in ms), WEBHOOK_ALLOW_PRIVATE_TARGETS (CONTRACT §13). */
  readonly webhookTimeoutMs: number
  readonly webhookRetryScheduleMs: ReadonlyArray<number>
  readonly webhookAllowPrivateTargets: boolean
  /**
   * WEBHOOK_CONCURRENCY (attempts at once in this process), WEBHOOK_ENDPOINT_CONCURRENCY and
   * WEBHOOK_ORGANISATION_CONCURRENCY (attempts in flight to one endpoint, for one organisation, over every process).
   */
  readonly webhookConcurrency: number
  readonly webhookEndpointConcurrency: number
  readonly webhookOrganisationConcurrency: number
  /** SMTP_URL (unset: every message is held, never sent), MAIL_FROM, MAIL_RETRY_SCHEDULE (in seconds). */
  readonly mail: MailConfig
  /** TOKEN_KEY: 32 bytes sealing the tokens of links in messages; unset: one generated once, kept beside the data. */
  readonly tokenKey: Redacted.Redacted<Uint8Array> | undefined
  /** PORTAL_REMINDER_HOURS: a section reminder this many hours before each pending section's due date (default 72,24). */
  readonly portalReminderHours: ReadonlyArray<number>
  /** METRICS_PORT: the port of `GET /metrics` (Prometheus), on HOST; unset: no metrics listener. */
  readonly metricsPort: number | undefined
  /** OTEL_*: traces over OTLP/HTTP; undefined: no tracing. */
  readonly tracing: TracingConfig | undefined
  /** FILES_DIR: the uploaded files' folder (backed up with the embedded database when it exists). */
  readonly filesDir: string
  /** BACKUP_DIR, BACKUP_INTERVAL_HOURS, BACKUP_KEEP: scheduled backups of the embedded database; undefined: none. */
  readonly backup: BackupConfig | undefined
}

export interface MailConfig {
  /** `smtp://user:pass@host:587` or `smtps://…`; it holds a password, so it is never echoed. */
  readonly smtpUrl: Redacted.Redacted<string> | undefined
  readonly from: string
  readonly retryScheduleSeconds: ReadonlyArray<number>
  /** MAIL_PER_RECIPIENT_PER_DAY: messages to one visitor-typed address per organisation within 24 hours. */
  readonly perRecipientPerDay: number
}

export const defaultMailFrom = "Forms <noreply@localhost>"
export const defaultMailRetrySchedule = "60,300,1800,7200"

// An address, or `Name <address>`: one line, one `@`, no other angle brackets.
const mailFromPattern = /^(?:[^\r\n<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/

export const defaultPortalReminderHours = "72,24"

/** Whole hours from 1 to 720, comma-separated, each once (largest first); a sentence saying what is wrong otherwise. */
export const parseReminderHours = (text: string): ReadonlyArray<number> | string => {
  const parts = text.split(",").map((part) => part.trim())
  const hours: Array<number> = []
  for (const part of parts) {
    const n = /^\d+$/.test(part) ? Number(part) : Number.NaN
    if (!Number.isSafeInteger(n) || n < 1 || n > 720) return `each from 1 to 720 (got ${JSON.stringify(part)})`
    if (hours.includes(n)) return `each once (got ${n} twice)`
    hours.push(n)
  }
  return hours.sort((a, b) => b - a)
}

export interface TracingConfig {
  /** The collector's base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces`. */
  readonly endpoint: string
  readonly protocol: "http/protobuf" | "http/json"
  /** OTEL_EXPORTER_OTLP_HEADERS, e.g. an API key of a hosted collector: never printed. */
  readonly headers: Redacted.Redacted<Readonly<Record<string, string>>>
  readonly serviceName: string
  /** OTEL_RESOURCE_ATTRIBUTES: `key=value` pairs added to every span's resource. */
  readonly resourceAttributes: Readonly<Record<string, string>>
}

export interface BackupConfig {
  readonly dir: string
  readonly intervalHours: number
  readonly keep: number
}

/** `key=value,key=value` (values URL-encoded, as OpenTelemetry's variables are), or a problem. */
const parsePairs = (text: string): Record<string, string> | string => {
  const pairs: Record<string, string> = Object.create(null)
  for (const part of text.split(",")) {
    if (part.trim() === "") continue
    const at = part.indexOf("=")
    if (at <= 0) return "each entry must be key=value"
    try {
      pairs[decodeURIComponent(part.slice(0, at).trim())] = decodeURIComponent(part.slice(at + 1).trim())
    } catch {
      return "an entry is not valid URL encoding"
    }
  }
  return pairs
}

export type Env = Readonly<Record<string, string | undefined>>

const logLevels: ReadonlyArray<LogLevelName> = ["debug", "info", "warn", "error"]

/**
 * Reads every variable, so that one start reports every bad value at once, each naming its variable. Every read
 * is unconditional: test/configurationDocs.test.ts records the names read to check docs/configuration.md.
 * Relative paths (DATA_DIR, FIXTURE_FILE) are resolved against where `pnpm` was started (INIT_CWD),
 * else against `cwd`.
 */
export const parseConfig = (env: Env, cwd: string = process.cwd()): Result.Result<ServerConfig, ReadonlyArray<string>> => {
  const problems: Array<string> = []
  const base = env["INIT_CWD"] ?? cwd
  const raw = (name: string): string | undefined => {
    const value = env[name]
    return value === undefined || value.trim() === "" ? undefined : value.trim()
  }
  const int = (name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const value = raw(name)
    if (value === undefined) return fallback
    const n = /^\d+$/.test(value) ? Number(value) : Number.NaN
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`
      problems.push(`${name} must be a whole number ${range} (got ${JSON.stringify(value)}).`)
      return fallback
    }
    return n
  }
  const url = (name: string, protocols: ReadonlyArray<string>, options: { readonly echo: boolean }): string | undefined => {
    const value = raw(name)
    if (value === undefined) return undefined
    let parsed: URL | undefined
    try {
      parsed = new URL(value)
    } catch {
      parsed = undefined
    }
    if (parsed === undefined || !protocols.includes(parsed.protocol) || parsed.host === "") {
      const got = options.echo ? ` (got ${JSON.stringify(value)})` : ""
      problems.push(`${name} must be a ${protocols.map((p) => p + "//").join(" or ")} URL with a host${got}.`)
      return undefined
    }
    return value
  }

  const port = int("PORT", 3000, 0, 65_535)
  const host = raw("HOST") ?? "127.0.0.1"
  if (/\s/.test(host)) problems.push(`HOST must be a host name or address (got ${JSON.stringify(host)}).`)
  const databaseUrl = url("DATABASE_URL", ["postgres:", "postgresql:"], { echo: false })
  const publicBaseUrl = url("PUBLIC_BASE_URL", ["http:", "https:"], { echo: true })
  const level = (raw("LOG_LEVEL") ?? "info").toLowerCase()
  if (!logLevels.some((l) => l === level)) {
    problems.push(`LOG_LEVEL must be one of ${logLevels.join(", ")} (got ${JSON.stringify(raw("LOG_LEVEL"))}).`)
  }
  const fixtureFile = raw("FIXTURE_FILE")
  const exempt = parseExemptNetworks(raw("RATE_LIMIT_EXEMPT_NETWORKS") ?? "")
  for (const problem of exempt.problems) problems.push(`RATE_LIMIT_EXEMPT_NETWORKS: ${problem}.`)
  const adminCors = parseAdminCorsOrigins(raw("ADMIN_CORS_ORIGINS") ?? "")
  for (const problem of adminCors.problems) problems.push(`ADMIN_CORS_ORIGINS: ${problem}.`)
  const schedule = parseRetrySchedule(env["WEBHOOK_RETRY_SCHEDULE"] ?? "5,300,1800,7200,18000,36000,36000")
  if (typeof schedule === "string") problems.push(`WEBHOOK_RETRY_SCHEDULE must be seconds, comma-separated: ${schedule}.`)
  const allowPrivate = (raw("WEBHOOK_ALLOW_PRIVATE_TARGETS") ?? "false").toLowerCase()
  if (allowPrivate !== "true" && allowPrivate !== "false") {
    problems.push(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false (got ${JSON.stringify(allowPrivate)}).`)
  }
  const smtpUrl = url("SMTP_URL", ["smtp:", "smtps:"], { echo: false })
  const mailFrom = raw("MAIL_FROM") ?? defaultMailFrom
  if (!mailFromPattern.test(mailFrom)) {
    problems.push(`MAIL_FROM must be an address or "Name <address>" on one line (got ${JSON.stringify(mailFrom)}).`)
  }
  const mailSchedule = parseRetrySchedule(env["MAIL_RETRY_SCHEDULE"] ?? defaultMailRetrySchedule)
  if (typeof mailSchedule === "string") problems.push(`MAIL_RETRY_SCHEDULE must be seconds, comma-separated: ${mailSchedule}.`)
  const tokenKeyText = raw("TOKEN_KEY")
  const tokenKey = tokenKeyText === undefined ? undefined : tokenKeyOf(tokenKeyText)
  // Never echoed: it is a secret.
  if (tokenKeyText !== undefined && tokenKey === undefined) problems.push("TOKEN_KEY must be 32 bytes in base64.")
  const portalReminderHours = parseReminderHours(raw("PORTAL_REMINDER_HOURS") ?? defaultPortalReminderHours)
  if (typeof portalReminderHours === "string") problems.push(`PORTAL_REMINDER_HOURS must be hours, comma-separated: ${portalReminderHours}.`)
  const metricsPort = raw("METRICS_PORT") === undefined ? undefined : int("METRICS_PORT", 0, 0, 65_535)
  if (metricsPort !== undefined && metricsPort !== 0 && metricsPort === port) problems.push("METRICS_PORT must differ from PORT: /metrics is never served on the public port.")
  const otlpEndpoint = url("OTEL_EXPORTER_OTLP_ENDPOINT", ["http:", "https:"], { echo: false })
  const protocol = raw("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf"
  if (protocol !== "http/protobuf" && protocol !== "http/json") {
    problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got ${JSON.stringify(protocol)}).`)
  }
  const otlpHeaders = parsePairs(raw("OTEL_EXPORTER_OTLP_HEADERS") ?? "")
  // The headers usually hold a key: the problem is named, the value never echoed.
  if (typeof otlpHeaders === "string") problems.push(`OTEL_EXPORTER_OTLP_HEADERS: ${otlpHeaders}.`)
  const resourceAttributes = parsePairs(raw("OTEL_RESOURCE_ATTRIBUTES") ?? "")
  if (typeof resourceAttributes === "string") problems.push(`OTEL_RESOURCE_ATTRIBUTES: ${resourceAttributes}.`)
  const serviceName = raw("OTEL_SERVICE_NAME") ?? "forms-portal"
  const dataDir = resolve(base, raw("DATA_DIR") ?? "./.data")
  const filesDir = raw("FILES_DIR")
  const backupDir = raw("BACKUP_DIR")
  const backupIntervalHours = int("BACKUP_INTERVAL_HOURS", 24, 1, 8_760)
  const backupKeep = int("BACKUP_KEEP", 7, 1, 10_000)
  if (backupDir !== undefined && databaseUrl !== undefined) {
    problems.push("BACKUP_DIR backs up the embedded database only: with DATABASE_URL, back up with pg_dump (docs/operations.md).")
  }
  const config: ServerConfig = {
    port,
    host,
    databaseUrl: databaseUrl === undefined ? undefined : Redacted.make(databaseUrl),
    dataDir,
    fixtureFile: fixtureFile === undefined ? undefined : resolve(base, fixtureFile),
    tokenGraceSeconds: int("FORM_TOKEN_GRACE_SECONDS", 86_400, 0),
    submitRateLimitPerHour: int("SUBMIT_RATE_LIMIT_PER_HOUR", 10, 1),
    portalRateLimitPerMinute: int("PORTAL_RATE_LIMIT_PER_MINUTE", 30, 1),
    writeRateLimitPerHour: int("WRITE_RATE_LIMIT_PER_HOUR", 600, 1),
    uploadRateLimitPerHour: int("UPLOAD_RATE_LIMIT_PER_HOUR", 60, 1),
    uploadBytesPerDay: int("UPLOAD_BYTES_PER_DAY", 524_288_000, 1),
    fileMaxBytes: int("FILE_MAX_BYTES", 26_214_400, 1),
    fileMaxBytesPerSubmission: int("FILE_MAX_BYTES_PER_SUBMISSION", 104_857_600, 1),
    exemptNetworks: exempt.networks,
    adminRateLimitPerMinute: int("ADMIN_RATE_LIMIT_PER_MINUTE", 600, 1),
    adminCorsOrigins: adminCors.origins,
    maxBodyBytes: int("MAX_BODY_BYTES", 262_144, 2),
    trustProxyHops: int("TRUST_PROXY_HOPS", 0, 0, 64),
    maxValuesKeys: int("MAX_VALUES_KEYS", 500, 1),
    maxStringLength: int("MAX_STRING_LENGTH", 10_000, 1),
    maxArrayItems: int("MAX_ARRAY_ITEMS", 200, 1),
    publicBaseUrl: publicBaseUrl?.replace(/\/+$/, ""),
    logLevel: logLevels.find((l) => l === level) ?? "info",
    draftRetentionDays: int("DRAFT_RETENTION_DAYS", 180, 1, 36_500),
    outboxRetentionDays: int("OUTBOX_RETENTION_DAYS", 30, 1, 36_500),
    webhookTimeoutMs: int("WEBHOOK_TIMEOUT_MS", 10_000, 1, 600_000),
    webhookRetryScheduleMs: typeof schedule === "string" ? defaultWebhookSettings.retryScheduleMs : schedule,
    webhookAllowPrivateTargets: allowPrivate === "true",
    webhookConcurrency: int("WEBHOOK_CONCURRENCY", defaultWebhookEngineOptions.concurrency, 1, 1_000),
    webhookEndpointConcurrency: int("WEBHOOK_ENDPOINT_CONCURRENCY", defaultWebhookEngineOptions.endpointConcurrency, 1, 1_000),
    webhookOrganisationConcurrency: int("WEBHOOK_ORGANISATION_CONCURRENCY", defaultWebhookEngineOptions.organisationConcurrency, 1, 1_000),
    mail: {
      smtpUrl: smtpUrl === undefined ? undefined : Redacted.make(smtpUrl),
      from: mailFrom,
      retryScheduleSeconds: typeof mailSchedule === "string" ? [60, 300, 1800, 7200] : mailSchedule.map((ms) => ms / 1000),
      perRecipientPerDay: int("MAIL_PER_RECIPIENT_PER_DAY", 5, 1, 1_000_000)
    },
    tokenKey: tokenKey === undefined ? undefined : Redacted.make(tokenKey),
    portalReminderHours: typeof portalReminderHours === "string" ? [72, 24] : portalReminderHours,
    metricsPort,
    tracing: otlpEndpoint === undefined ? undefined : {
      endpoint: otlpEndpoint.replace(/\/+$/, ""),
      protocol: protocol === "http/json" ? "http/json" : "http/protobuf",
      headers: Redacted.make(typeof otlpHeaders === "string" ? {} : otlpHeaders),
      serviceName,
      resourceAttributes: typeof resourceAttributes === "string" ? {} : resourceAttributes
    },
    filesDir: filesDir === undefined ? join(dataDir, "files") : resolve(base, filesDir),
    backup: backupDir === undefined ? undefined : {
      dir: resolve(base, backupDir),
      intervalHours: backupIntervalHours,
      keep: backupKeep
    }
  }
  return problems.length === 0 ? Result.succeed(config) : Result.fail(problems)
}

/** The base of printed URLs: PUBLIC_BASE_URL, else `http://HOST:PORT` with the port actually bound. */
export const baseUrlOf = (config: ServerConfig, boundPort: number = config.port): string =>
  config.publicBaseUrl ?? `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${boundPort}`

/** A path given on the command line, resolved like the configuration's paths. */
export const resolvePath = (env: Env, path: string, cwd: string = process.cwd()): string =>
  resolve(env["INIT_CWD"] ?? cwd, path)

export const formUrl = (baseUrl: string, token: string): string =>
  `${baseUrl}/public/forms/${encodeURIComponent(token)}`

/** The form as a web page (CONTRACT §14). */
export const formPageUrl = (baseUrl: string, token: string): string =>
  `${baseUrl}/f/${encodeURIComponent(token)}`

/** The artist portal as a web page (CONTRACT §14). */
export const portalPageUrl = (baseUrl: string, token: string): string =>
  `${baseUrl}/portal/${encodeURIComponent(token)}`

/** An engagement's artist portal (CONTRACT §5). */
export const portalUrl = (baseUrl: string, token: string): string =>
  `${baseUrl}/p/artist/${encodeURIComponent(token)}`
