/**
 * The delivery engine (CONTRACT §13): claims due deliveries (one statement), makes each attempt with no
 * database connection held (the guard, the signature, the transport), then records its outcome (one
 * statement). The domain decides the guard's policy, the schedule and the delivery's state machine.
 */
import { Cause, Clock, Effect, Layer, Random } from "effect"
import { forbiddenAddressReason, isAddressLiteral, parseTargetUrl, type TargetPolicy } from "./addressGuard.js"
import { nextAttemptAt, parseRetryAfter } from "./deliverySchedule.js"
import { messageBody, signedContent, signingSecrets } from "./WebhookMessage.js"
import type { AttemptOutcome, ClaimedDelivery, DeliveryClaimPolicy } from "./WebhookModel.js"
import { WebhookSettings, type WebhookSettingsShape } from "./WebhookSettings.js"
import { WebhookStore } from "./WebhookStore.js"
import { WebhookTransport } from "./WebhookTransport.js"

export interface WebhookEngineOptions {
  /**
   * Attempts in flight at once in this process, and so the most one claim takes: every claimed delivery
   * starts at once, so its lease (timeout + margin) covers it.
   */
  readonly concurrency: number
  /** The longest wait between two claims, in ms. */
  readonly pollIntervalMs: number
  /** Added to the attempt timeout to make a claim's lease: time to record the outcome. */
  readonly leaseMarginMs: number
}

export const defaultWebhookEngineOptions: WebhookEngineOptions = {
  concurrency: 8,
  pollIntervalMs: 1_000,
  leaseMarginMs: 15_000
}

export const deliveryClaimPolicy = (settings: WebhookSettingsShape, options: WebhookEngineOptions): DeliveryClaimPolicy => ({
  leaseMs: settings.timeoutMs + options.leaseMarginMs,
  maxAttempts: 1 + settings.retryScheduleMs.length
})

/**
 * The attempt's target address, or why the guard refuses it. The lookup gets at most `withinMs` (what is left of
 * the attempt's timeout): a lookup that hangs must not carry the attempt past its claim's lease.
 */
const guard = (url: string, policy: TargetPolicy, withinMs: number) =>
  Effect.gen(function*() {
    const target = parseTargetUrl(url)
    if (typeof target === "string") return { refused: `refused: ${target}` } as const
    if (!policy.allowPrivateTargets && target.scheme !== "https") return { refused: "refused: only https URLs are allowed" } as const
    const transport = yield* WebhookTransport
    const addresses = isAddressLiteral(target.host)
      ? [target.host]
      : yield* transport.resolve(target.host).pipe(
        Effect.timeoutOrElse({ duration: Math.max(0, withinMs), orElse: () => Effect.succeed("timed out") }),
        Effect.catch((failure) => Effect.succeed(failure.reason))
      )
    if (typeof addresses === "string") return { refused: `could not resolve the host: ${addresses}` } as const
    if (addresses.length === 0) return { refused: "could not resolve the host: no address" } as const
    if (!policy.allowPrivateTargets) {
      for (const address of addresses) {
        const reason = forbiddenAddressReason(address)
        if (reason !== null) return { refused: `refused: the host resolves to ${reason}` } as const
      }
    }
    return { address: addresses[0] ?? "" } as const
  })

const truncate = (text: string) => text.slice(0, 300)

const eventGone = "the event is gone"
const eventErased = "erased"
const eventEmptied = "the event's payload was emptied by retention (OUTBOX_RETENTION_DAYS)"
/** Reasons no later attempt can change: the delivery fails at once. */
const unsendable: ReadonlySet<string> = new Set([eventGone, eventErased, eventEmptied])

/** A defect's name only: its message could quote what was being sent. */
const errorName = (error: unknown): string =>
  typeof error === "object" && error !== null && "name" in error && typeof error.name === "string" ? error.name : typeof error

/** Makes one attempt of a claimed delivery and decides its outcome; never fails. */
export const attemptDelivery = (delivery: ClaimedDelivery) =>
  Effect.gen(function*() {
    const settings = yield* WebhookSettings
    const transport = yield* WebhookTransport
    const started = yield* Clock.currentTimeMillis
    const finish = (status_code: number | null, error: string | null, retryAfter: string | null, disable: string | null) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const attempt = { at: started, status_code, error: error === null ? null : truncate(error), duration_ms: now - started }
        if (error === null) return { attempt, status: "delivered", next_attempt_at: null, disable_reason: null } satisfies AttemptOutcome
        const final = disable !== null || unsendable.has(error)
        const retryAfterMs = status_code === 429 || status_code === 503 ? parseRetryAfter(retryAfter, now) : null
        const next = final ? null : nextAttemptAt(now, delivery.attempt_in_round, settings.retryScheduleMs, yield* Random.next, retryAfterMs)
        return {
          attempt,
          status: next === null ? "failed" : "pending",
          next_attempt_at: next,
          disable_reason: disable
        } satisfies AttemptOutcome
      })
    // Erasure strips an event's values and marks it, retention empties the payload (CONTRACT §12): such an
    // event is never sent, and no later attempt could send it.
    if (delivery.payload === null) return yield* finish(null, eventGone, null, null)
    if (delivery.payload["erased"] === true) return yield* finish(null, eventErased, null, null)
    if (Object.keys(delivery.payload).length === 0) return yield* finish(null, eventEmptied, null, null)
    // One budget for the whole attempt (the lookup, then the request): the claim's lease covers it.
    const target = yield* guard(delivery.url, settings, settings.timeoutMs)
    if ("refused" in target) return yield* finish(null, target.refused, null, null)
    const left = settings.timeoutMs - ((yield* Clock.currentTimeMillis) - started)
    if (left <= 0) return yield* finish(null, "timed out", null, null)
    const body = messageBody(delivery)
    const timestamp = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const content = signedContent(delivery.event_id, timestamp, body)
    const signatures = yield* Effect.forEach(signingSecrets(delivery, started), (secret) =>
      Effect.map(transport.sign(secret, content), (s) => `v1,${s}`))
    const answer = yield* transport.send({
      url: delivery.url,
      address: target.address,
      headers: {
        "content-type": "application/json",
        "user-agent": "forms-portal-webhooks/1",
        "webhook-id": delivery.event_id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signatures.join(" ")
      },
      body,
      timeoutMs: left
    })
    if (answer._tag === "NoAnswer") {
      // The request had what the lookup left of the attempt's timeout: a time-out is the attempt's, named by it.
      const timedOut = (yield* Clock.currentTimeMillis) - started >= settings.timeoutMs
      return yield* finish(null, timedOut ? `timed out after ${settings.timeoutMs} ms` : answer.reason, null, null)
    }
    const status = answer.status
    if (status >= 200 && status <= 299) return yield* finish(status, null, null, null)
    if (status === 410) return yield* finish(status, "HTTP 410: the receiver is gone; endpoint disabled", null, "the endpoint answered 410 Gone")
    if (status >= 300 && status <= 399) return yield* finish(status, `HTTP ${status}: redirects are not followed`, null, null)
    return yield* finish(status, `HTTP ${status}`, answer.retryAfter, null)
  })

/**
 * One claim and its attempts (at most `concurrency` at once), each outcome recorded as it comes.
 * Answers how many were claimed.
 */
export const deliverBatch = (options: Partial<WebhookEngineOptions> = {}) =>
  Effect.gen(function*() {
    const resolved = { ...defaultWebhookEngineOptions, ...options }
    const settings = yield* WebhookSettings
    const store = yield* WebhookStore
    const claimed = yield* store.claimDeliveries(
      Math.max(1, resolved.concurrency),
      deliveryClaimPolicy(settings, resolved),
      yield* Clock.currentTimeMillis
    )
    yield* Effect.forEach(claimed, (delivery) =>
      Effect.gen(function*() {
        const outcome = yield* attemptDelivery(delivery)
        yield* store.recordAttempt(delivery, outcome)
        if (outcome.status !== "delivered") {
          yield* Effect.logWarning("webhook attempt failed").pipe(Effect.annotateLogs({
            delivery_id: delivery.id,
            event_id: delivery.event_id,
            attempt: delivery.attempt,
            status: outcome.status,
            error: outcome.attempt.error
          }))
        }
      }), { concurrency: Math.max(1, resolved.concurrency), discard: true })
    return claimed.length
  }).pipe(Effect.withSpan("WebhookEngine.deliverBatch"))

/** Batches while they come back full, else waits the poll interval; forever. An unreachable store is logged. */
export const runWebhookEngine = (options: Partial<WebhookEngineOptions> = {}) =>
  Effect.gen(function*() {
    const resolved = { ...defaultWebhookEngineOptions, ...options }
    while (true) {
      const claimed = yield* deliverBatch(resolved).pipe(
        Effect.catchTag("Unavailable", (error) =>
          Effect.logWarning("webhook delivery: store unavailable").pipe(
            Effect.annotateLogs({ reason: error.reason }),
            Effect.as(0)
          )),
        // A defect must not stop the engine: its claimed deliveries come back after their lease, as interrupted attempts.
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("webhook delivery: unexpected failure").pipe(Effect.annotateLogs({ error: errorName(Cause.squash(cause)) }), Effect.as(0)))
      )
      if (claimed < Math.max(1, resolved.concurrency)) yield* Effect.sleep(resolved.pollIntervalMs)
    }
  })

export const WebhookEngine = {
  /** A layer whose lifetime is the engine's: built, it runs; released, it stops (an attempt in flight is retried after its lease). */
  layer: (options: Partial<WebhookEngineOptions> = {}) =>
    Layer.effectDiscard(Effect.forkScoped(runWebhookEngine(options)))
} as const
