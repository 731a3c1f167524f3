/** The Standard Webhooks message of a delivery (CONTRACT §13), pure: body and the content each signature covers. */
import type { ClaimedDelivery } from "./WebhookModel.js"

/** Signatures with the secret before a rotation are added for this long after it. */
export const rotationOverlapMs = 24 * 60 * 60 * 1000

/**
 * `{ type, timestamp, data }`: `data` is the event's payload plus `organisation_id` and `form_id` (a test
 * message's data as recorded). Built from the payload's own keys only.
 */
export const messageBody = (delivery: ClaimedDelivery): string => {
  const data: Record<string, unknown> = {}
  const put = (key: string, value: unknown) =>
    Object.defineProperty(data, key, { value, enumerable: true, writable: true, configurable: true })
  for (const [key, value] of Object.entries(delivery.payload ?? {})) put(key, value)
  if (delivery.event_type !== "webhook.test") {
    put("organisation_id", delivery.organisation_id)
    put("form_id", delivery.form_id)
  }
  return JSON.stringify({ type: delivery.event_type, timestamp: new Date(delivery.event_at).toISOString(), data })
}

/** What `webhook-signature` signs: `{id}.{timestamp}.{body}`. */
export const signedContent = (id: string, timestampSeconds: number, body: string): string =>
  `${id}.${timestampSeconds}.${body}`

/** The secrets that sign an attempt at `now`: the current one, and the one before for 24 h after a rotation. */
export const signingSecrets = (delivery: ClaimedDelivery, now: number): ReadonlyArray<string> =>
  delivery.previous_secret !== null && delivery.secret_rotated_at !== null &&
    now - delivery.secret_rotated_at < rotationOverlapMs
    ? [delivery.secret, delivery.previous_secret]
    : [delivery.secret]
