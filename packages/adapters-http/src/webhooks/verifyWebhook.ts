/**
 * Verifies a webhook message of this service (Standard Webhooks) on the receiver's side:
 * the `webhook-signature` (any of its `v1,` signatures, so both secrets verify during a rotation) over
 * `{webhook-id}.{webhook-timestamp}.{body}`, in constant time, and a timestamp within the tolerance (a
 * captured request cannot be replayed later). Deduplicate by the answer's `id`: retries and replays keep it.
 */
import { createHmac, timingSafeEqual } from "node:crypto"

export type WebhookVerification =
  | { readonly ok: true; readonly id: string; readonly timestamp: number; readonly message: { readonly type: string; readonly timestamp: string; readonly data: Readonly<Record<string, unknown>> } }
  | { readonly ok: false; readonly reason: string }

type HeaderSource = { readonly get: (name: string) => string | null } | Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

const header = (headers: HeaderSource, name: string): string | undefined => {
  if (typeof headers.get === "function") return (headers as { get: (n: string) => string | null }).get(name) ?? undefined
  const record = headers as Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
  const key = Object.keys(record).find((k) => k.toLowerCase() === name)
  const value = key === undefined ? undefined : record[key]
  return typeof value === "string" ? value : value?.[0]
}

/**
 * `secret`: the endpoint's `whsec_…` secret. `headers`: a plain object (Node's `req.headers`) or a
 * `Headers`. `body`: the raw body exactly as received (not re-serialised JSON).
 */
export const verifyWebhook = (
  secret: string,
  headers: HeaderSource,
  body: string | Uint8Array,
  options: { readonly toleranceSeconds?: number; readonly now?: number } = {}
): WebhookVerification => {
  const id = header(headers, "webhook-id")
  const timestampText = header(headers, "webhook-timestamp")
  const signatures = header(headers, "webhook-signature")
  if (id === undefined || timestampText === undefined || signatures === undefined) return { ok: false, reason: "missing webhook headers" }
  if (!/^\d{1,12}$/.test(timestampText)) return { ok: false, reason: "malformed webhook-timestamp" }
  const timestamp = Number(timestampText)
  const now = Math.floor((options.now ?? Date.now()) / 1000)
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return { ok: false, reason: "timestamp outside the tolerance" }
  const text = typeof body === "string" ? body : Buffer.from(body).toString("utf8")
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice(6) : secret, "base64")
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${text}`, "utf8").digest()
  const matches = signatures.split(" ").some((entry) => {
    const [version, signature] = entry.split(",", 2)
    if (version !== "v1" || signature === undefined) return false
    const given = Buffer.from(signature, "base64")
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
  if (!matches) return { ok: false, reason: "no valid signature" }
  try {
    const message: unknown = JSON.parse(text)
    if (typeof message !== "object" || message === null || !("type" in message) || typeof message.type !== "string") {
      return { ok: false, reason: "not a webhook message" }
    }
    return { ok: true, id, timestamp, message: message as Extract<WebhookVerification, { ok: true }>["message"] }
  } catch {
    return { ok: false, reason: "the body is not JSON" }
  }
}
