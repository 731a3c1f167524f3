/**
 * Real traffic: each flow is its own visitor, sending its own X-Forwarded-For address to a server that
 * trusts one proxy hop (TRUST_PROXY_HOPS=1). Addresses come from a counter: IPv4 in 10.0.0.0/8
 * (private, never exempt unless RATE_LIMIT_EXEMPT_NETWORKS says so; the servers are started without it),
 * or IPv6 in the documentation prefix 2001:db8::/32 with the counter in the /64 (the limits group IPv6
 * clients by /64, so each flow must differ above it).
 */

export type AddressFamily = "ipv4" | "ipv6"

/** Distinct visitors before the counter wraps: 10.0.0.1 … 10.255.255.254 (no network or broadcast address). */
export const ipv4Visitors = 2 ** 24 - 2

/** The address of visitor `n` (n ≥ 0); distinct for n below `ipv4Visitors` (IPv4) or 2^32 (IPv6). */
export const visitorAddress = (n: number, family: AddressFamily = "ipv4"): string => {
  if (family === "ipv6") {
    const k = n % 2 ** 32
    return `2001:db8:${(Math.floor(k / 65536)).toString(16)}:${(k % 65536).toString(16)}::1`
  }
  const k = (n % ipv4Visitors) + 1
  return `10.${(k >>> 16) & 255}.${(k >>> 8) & 255}.${k & 255}`
}

/** How a run's load reaches the servers. */
export type Traffic =
  /** The headline: a visitor per flow (X-Forwarded-For, TRUST_PROXY_HOPS=1), every limit at its default. */
  | "visitors"
  /** The stress variant: every flow from 127.0.0.1, the submit and write limits lifted to 10^8. */
  | "one-address"

/** The variables that set a server up for the traffic (the bench removes any inherited limit variables first). */
export const trafficEnv = (traffic: Traffic): Record<string, string> =>
  traffic === "visitors"
    ? { TRUST_PROXY_HOPS: "1" }
    : { TRUST_PROXY_HOPS: "0", SUBMIT_RATE_LIMIT_PER_HOUR: "100000000", WRITE_RATE_LIMIT_PER_HOUR: "100000000" }

/** Inherited variables that would change what the servers limit; never passed on to them. */
export const limitVariables = [
  "TRUST_PROXY_HOPS",
  "RATE_LIMIT_EXEMPT_NETWORKS",
  "SUBMIT_RATE_LIMIT_PER_HOUR",
  "WRITE_RATE_LIMIT_PER_HOUR",
  "PORTAL_RATE_LIMIT_PER_MINUTE",
  "ADMIN_RATE_LIMIT_PER_MINUTE"
] as const
