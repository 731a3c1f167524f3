/**
 * The service's counters (Effect metrics, read by whatever exports them: the standalone server serves them to
 * Prometheus). Labels hold fixed names only (a policy, an outcome), never a value, token, id or address.
 * Counting is one map lookup and an addition, so it runs whether or not anything reads the counters.
 */
import { Effect, Metric } from "effect"

/** The rate-limit policies a refusal is counted under (CONTRACT §8; `admin` is the organiser API's). */
export type RefusalPolicy = "submit" | "portal" | "write" | "admin" | "upload" | "upload_bytes"
export const refusalPolicies: ReadonlyArray<RefusalPolicy> = ["submit", "portal", "write", "admin", "upload", "upload_bytes"]

const refusals = new Map<RefusalPolicy, Metric.Counter<number>>(refusalPolicies.map((policy) => [
  policy,
  Metric.counter("forms_rate_limit_refusals_total", {
    description: "Requests refused by a rate limit (429), by policy.",
    attributes: { policy },
    incremental: true
  })
]))

/** The counter of refusals under `policy`. */
export const rateLimitRefusals = (policy: RefusalPolicy): Metric.Counter<number> =>
  refusals.get(policy) ?? Metric.counter("forms_rate_limit_refusals_total", { attributes: { policy } })

export const submissionsSubmitted: Metric.Counter<number> = Metric.counter("forms_submissions_submitted_total", {
  description: "Public-form submissions submitted (each once; a repeated submit is not counted).",
  incremental: true
})

export type AttemptOutcome = "success" | "failure"

const attemptCounter = (outcome: AttemptOutcome) =>
  Metric.counter("forms_webhook_attempts_total", {
    description: "Webhook delivery attempts, by outcome (success: a 2xx answer).",
    attributes: { outcome },
    incremental: true
  })

export const webhookAttempts: Readonly<Record<AttemptOutcome, Metric.Counter<number>>> = {
  success: attemptCounter("success"),
  failure: attemptCounter("failure")
}

/** Counts one refusal. */
export const countRefusal = (policy: RefusalPolicy) => Metric.update(rateLimitRefusals(policy), 1)

/** Counts one webhook attempt. */
export const countWebhookAttempt = (outcome: AttemptOutcome) => Metric.update(webhookAttempts[outcome], 1)

/**
 * Every counter at zero, so that each series exists before its first event (a rate over a series that appears
 * only with its first failure misses that failure).
 */
export const registerCounters: Effect.Effect<void> = Effect.gen(function*() {
  for (const policy of refusalPolicies) yield* Metric.update(rateLimitRefusals(policy), 0)
  yield* Metric.update(submissionsSubmitted, 0)
  yield* Metric.update(webhookAttempts.success, 0)
  yield* Metric.update(webhookAttempts.failure, 0)
})
