/**
 * The delivery engine (CONTRACT §13): claims due deliveries (one statement), makes each attempt with no
 * database connection held (the guard, the signature, the transport), then records its outcome (one
 * statement). The domain decides the guard's policy, the schedule and the delivery's state machine.
 *
 * Attempts run in a continuous pool: a slow attempt holds one worker, and a worker that finishes lets the next
 * due delivery start at once. The claim never takes more of one endpoint or one organisation than their caps
 * (counted over every process), so a receiver that never answers holds a few workers of its own, never the pool.
 */
import { Cause, Clock, Effect, FiberSet, Latch, Layer, Random } from "effect"
import { countWebhookAttempt } from "../operations/counters.js"
import {
  forbiddenAddressReason,
  httpsOnly,
  isAddressLiteral,
  parseTargetUrl,
  type TargetPolicy,
  unreachableTarget
} from "./addressGuard.js"
import { nextAttemptAt, parseRetryAfter } from "./deliverySchedule.js"
import { messageBody, signedContent, signingSecrets } from "./WebhookMessage.js"
import type { AttemptOutcome, ClaimedDelivery, DeliveryClaimPolicy } from "./WebhookModel.js"
import { WebhookSettings, type WebhookSettingsShape } from "./WebhookSettings.js"
import { WebhookStore } from "./WebhookStore.js"
import { WebhookTransport } from "./WebhookTransport.js"

export interface WebhookEngineOptions {
  /**
   * Workers of this process: attempts in flight at once here. A claim takes at most the free ones, and every
   * claimed delivery starts at once, so its lease (timeout + margin) covers it.
   */
  readonly concurrency: number
  /** Attempts in flight at once to one endpoint, over every process. */
  readonly endpointConcurrency: number
  /** Attempts in flight at once for one organisation's endpoints, over every process. */
  readonly organisationConcurrency: number
  /** The longest wait between two claims, in ms. */
  readonly pollIntervalMs: number
  /** Added to the attempt timeout to make a claim's lease: time to record the outcome. */
  readonly leaseMarginMs: number
}

/**
 * 32 workers, 4 per endpoint, 8 per organisation: one organisation whose receivers never answer holds at most 8
 * workers (of every process together), so the pool of one process still has 24 for every other organisation.
 */
export const defaultWebhookEngineOptions: WebhookEngineOptions = {
  concurrency: 32,
  endpointConcurrency: 4,
  organisationConcurrency: 8,
  pollIntervalMs: 1_000,
  leaseMarginMs: 15_000
}

export const deliveryClaimPolicy = (settings: WebhookSettingsShape, options: WebhookEngineOptions): DeliveryClaimPolicy => ({
  leaseMs: settings.timeoutMs + options.leaseMarginMs,
  maxAttempts: 1 + settings.retryScheduleMs.length,
  endpointConcurrency: Math.max(1, options.endpointConcurrency),
  organisationConcurrency: Math.max(1, options.organisationConcurrency)
})

/**
 * The attempt's target address, or why the guard refuses it. The lookup gets at most `withinMs` (what is left of
 * the attempt's timeout): a lookup that hangs must not carry the attempt past its claim's lease.
 */
const guard = (url: string, policy: TargetPolicy, withinMs: number) =>
  Effect.gen(function*() {
    const target = parseTargetUrl(url)
    if (typeof target === "string") return { refused: `refused: ${target}` } as const
    if (!policy.allowPrivateTargets && target.scheme !== "https") return { refused: `refused: ${httpsOnly}` } as const
    const transport = yield* WebhookTransport
    const addresses = isAddressLiteral(target.host)
      ? [target.host]
      : yield* transport.resolve(target.host).pipe(
        Effect.timeoutOrElse({ duration: Math.max(0, withinMs), orElse: () => Effect.succeed("timed out") }),
        Effect.catch((failure) => Effect.succeed(failure.reason))
      )
    // Not found, no address, a failed lookup and a non-public address are one answer (see unreachableTarget).
    const refused = { refused: `refused: ${unreachableTarget(policy)}` } as const
    if (typeof addresses === "string" || addresses.length === 0) return refused
    if (!policy.allowPrivateTargets && addresses.some((address) => forbiddenAddressReason(address) !== null)) return refused
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

/** Makes the attempt of a claimed delivery and records its outcome; a failure is logged (never its values). */
const attemptAndRecord = (delivery: ClaimedDelivery) =>
  Effect.gen(function*() {
    const store = yield* WebhookStore
    // One span per attempt (the transport's traceparent names it), one count per outcome.
    const outcome = yield* attemptDelivery(delivery).pipe(Effect.withSpan("WebhookEngine.attempt", { kind: "client" }))
    yield* countWebhookAttempt(outcome.status === "delivered" ? "success" : "failure")
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
  })

const claim = (limit: number, options: WebhookEngineOptions) =>
  Effect.gen(function*() {
    const settings = yield* WebhookSettings
    const store = yield* WebhookStore
    return yield* store.claimDeliveries(limit, deliveryClaimPolicy(settings, options), yield* Clock.currentTimeMillis)
  })

/**
 * One claim (at most `concurrency` deliveries, within the caps) and all its attempts, awaited; each outcome is
 * recorded as it comes. Answers how many were claimed. The engine does not wait for a whole claim (see
 * `runWebhookEngine`); this is the step a test or a one-off drain takes.
 */
export const deliverBatch = (options: Partial<WebhookEngineOptions> = {}) =>
  Effect.gen(function*() {
    const resolved = { ...defaultWebhookEngineOptions, ...options }
    const claimed = yield* claim(Math.max(1, resolved.concurrency), resolved)
    yield* Effect.forEach(claimed, attemptAndRecord, { concurrency: "unbounded", discard: true })
    return claimed.length
  }).pipe(Effect.withSpan("WebhookEngine.deliverBatch"))

/** A failure of a claim is logged and counts as nothing claimed; an interruption stops the engine. */
const claimOrNothing = (limit: number, options: WebhookEngineOptions) =>
  claim(limit, options).pipe(
    Effect.catchTag("Unavailable", (error) =>
      Effect.logWarning("webhook delivery: store unavailable").pipe(
        Effect.annotateLogs({ reason: error.reason }),
        Effect.as([])
      )),
    Effect.catchCause((cause) =>
      Cause.hasInterruptsOnly(cause)
        ? Effect.failCause(cause)
        : Effect.logError("webhook delivery: unexpected failure").pipe(
          Effect.annotateLogs({ error: errorName(Cause.squash(cause)) }),
          Effect.as([])
        ))
  )

/**
 * The pool, forever: claims as many due deliveries as it has free workers, starts each at once, and claims again
 * as soon as a worker is free (or after the poll interval when nothing more was due). An unreachable store is
 * logged; a defect in an attempt is logged and its delivery comes back after its lease, as an interrupted attempt.
 */
export const runWebhookEngine = (options: Partial<WebhookEngineOptions> = {}) =>
  Effect.scoped(Effect.gen(function*() {
    const resolved = { ...defaultWebhookEngineOptions, ...options }
    const size = Math.max(1, resolved.concurrency)
    const workers = yield* FiberSet.make<void, never>()
    // Opened by every worker that finishes: the loop then claims for the free worker at once.
    const freed = yield* Latch.make(false)
    let busy = 0
    // An outcome that could not be recorded: the delivery comes back after its lease, as an interrupted attempt.
    const work = (delivery: ClaimedDelivery) =>
      attemptAndRecord(delivery).pipe(
        Effect.catchTag("Unavailable", (error) =>
          Effect.logWarning("webhook delivery: store unavailable").pipe(Effect.annotateLogs({ reason: error.reason }))),
        Effect.catchCause((cause) =>
          Cause.hasInterruptsOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("webhook delivery: unexpected failure").pipe(
              Effect.annotateLogs({ error: errorName(Cause.squash(cause)) })
            )),
        Effect.ensuring(Effect.suspend(() => {
          busy--
          return freed.open
        })),
        Effect.withSpan("WebhookEngine.attempt")
      )
    while (true) {
      yield* freed.close
      const free = size - busy
      if (free > 0) {
        const claimed = yield* claimOrNothing(free, resolved)
        busy += claimed.length
        for (const delivery of claimed) yield* FiberSet.run(workers, work(delivery))
        // A full claim: more may be due at once.
        if (claimed.length === free) continue
      }
      yield* Effect.timeoutOption(freed.await, resolved.pollIntervalMs)
    }
  }))

export const WebhookEngine = {
  /** A layer whose lifetime is the engine's: built, it runs; released, it stops (an attempt in flight is retried after its lease). */
  layer: (options: Partial<WebhookEngineOptions> = {}) =>
    Layer.effectDiscard(Effect.forkScoped(runWebhookEngine(options)))
} as const
