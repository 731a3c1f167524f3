/** The client limits of CONTRACT §8: a name for the headers, a sliding window, and how a request is keyed. */
import { Schema } from "effect"

export interface LimitPolicy {
  readonly name: "submit" | "portal" | "write" | "upload" | "upload_bytes"
  readonly windowMs: number
}

/** Submits per client per form schema (a rotated token shares its schema's budget). */
export const submitPolicy: LimitPolicy = { name: "submit", windowMs: 3_600_000 }
/** The portal routes under /p/artist together, per client per engagement. */
export const portalPolicy: LimitPolicy = { name: "portal", windowMs: 60_000 }
/** Uploads per client per form schema. */
export const uploadPolicy: LimitPolicy = { name: "upload", windowMs: 3_600_000 }
/** Bytes of stored uploads per client per form schema, a sliding day (a weighted window). */
export const uploadBytesPolicy: LimitPolicy = { name: "upload_bytes", windowMs: 86_400_000 }
/** Creates and saves together, per client per form schema. */
export const writePolicy: LimitPolicy = { name: "write", windowMs: 3_600_000 }

/**
 * Who a client limit counts: the canonical client address (IPv6 grouped by /64, chosen by the HTTP
 * adapter), and whether the client is in an exempt network (then no limit counts it).
 */
export const Client = Schema.Struct({
  address: Schema.String,
  exempt: Schema.Boolean
})
export type Client = typeof Client.Type

/** The client at `address`; `exempt` when its network is exempt from the limits (default: counted). */
export const clientAt = (address: string, options: { readonly exempt?: boolean } = {}): Client => ({
  address,
  exempt: options.exempt ?? false
})

/** The limiter key: the policy, what it is counted per (a schema or an engagement id), and the client. */
export const limitKey = (policy: LimitPolicy, scope: string, client: Client): string =>
  `${policy.name}:${scope}:${client.address}`
