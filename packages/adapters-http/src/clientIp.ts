/**
 * The client IP of a request: the socket's peer address, or with `trustProxyHops = n > 0` the n-th
 * address from the right of X-Forwarded-For (all X-Forwarded-For headers joined, comma-separated).
 * With fewer than n addresses the leftmost one is used; without the header, the peer address.
 */
import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"

/** `::ffff:192.0.2.1` and `192.0.2.1` are one client. */
const normalize = (address: string): string => {
  const trimmed = address.trim().toLowerCase()
  return trimmed.startsWith("::ffff:") && trimmed.includes(".") ? trimmed.slice(7) : trimmed
}

export const forwardedClient = (forwardedFor: string | undefined, hops: number): string | undefined => {
  if (forwardedFor === undefined || hops <= 0) return undefined
  const addresses = forwardedFor.split(",").map((a) => a.trim()).filter((a) => a.length > 0)
  if (addresses.length === 0) return undefined
  const index = Math.max(0, addresses.length - hops)
  const chosen = addresses[index]
  return chosen === undefined ? undefined : normalize(chosen)
}

export const clientIp = (request: HttpServerRequest.HttpServerRequest, trustProxyHops: number): string => {
  const forwarded = forwardedClient(request.headers["x-forwarded-for"], trustProxyHops)
  if (forwarded !== undefined) return forwarded
  return Option.match(request.peerAddress, { onNone: () => "unknown", onSome: normalize })
}
