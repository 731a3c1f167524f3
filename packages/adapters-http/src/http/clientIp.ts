/**
 * The client of a request, as the rate limits count it: the socket's peer, or with `trustProxyHops = n > 0` the n-th
 * address from the right of X-Forwarded-For (all X-Forwarded-For headers joined, comma-separated; with
 * fewer than n entries the leftmost). A chosen entry that is not an IP address is ignored: the peer is
 * the client. Addresses are canonical and IPv6 clients are grouped by /64 (clientAddress.ts).
 */
import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { Client } from "@forms/domain"
import { type CanonicalAddress, canonicalAddress } from "./clientAddress.js"
import type { ExemptNetworks } from "./exemptNetworks.js"

export const forwardedClient = (forwardedFor: string | undefined, hops: number): CanonicalAddress | undefined => {
  if (forwardedFor === undefined || hops <= 0) return undefined
  const entries = forwardedFor.split(",").filter((entry) => entry.trim().length > 0)
  const chosen = entries[Math.max(0, entries.length - hops)]
  return chosen === undefined ? undefined : canonicalAddress(chosen)
}

export const clientAddressOf = (
  request: HttpServerRequest.HttpServerRequest,
  trustProxyHops: number
): CanonicalAddress | undefined =>
  forwardedClient(request.headers["x-forwarded-for"], trustProxyHops) ??
    Option.match(request.peerAddress, { onNone: () => undefined, onSome: canonicalAddress })

/** The client a limit counts; a peer without an address (never on a TCP socket) is one shared "unknown" client. */
export const clientOf = (
  request: HttpServerRequest.HttpServerRequest,
  trustProxyHops: number,
  exempt: ExemptNetworks
): Client => {
  const address = clientAddressOf(request, trustProxyHops)
  if (address === undefined) return { address: "unknown", exempt: false }
  return { address: address.client, exempt: exempt.contains(address) }
}
