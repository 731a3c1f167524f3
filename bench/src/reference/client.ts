/**
 * The reference's client address (CONTRACT §8), as ours reads it: the socket's peer, or with
 * `TRUST_PROXY_HOPS = n > 0` the n-th X-Forwarded-For entry from the right (the leftmost when there are
 * fewer); an entry that is not an IP address is ignored (the peer is the client). Canonical form:
 * IPv4-mapped IPv6 is its IPv4 address, IPv6 is compressed and grouped by its /64. Clients in
 * RATE_LIMIT_EXEMPT_NETWORKS are counted by no limit.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net"

export interface ClientAddress {
  /** The whole canonical address (what the exempt networks are checked against). */
  readonly address: string
  readonly family: "ipv4" | "ipv6"
  /** What a limit counts: the address for IPv4, the /64 network for IPv6. */
  readonly client: string
}

/** `[v6]:port`, `[v6]`, `v4:port`, `v6%zone` → the bare address (not yet checked). */
const bare = (entry: string): string => {
  let text = entry.trim()
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text)
  if (bracketed !== null) text = bracketed[1] ?? ""
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(":"))
  const zone = text.indexOf("%")
  return zone === -1 ? text : text.slice(0, zone)
}

/** The eight groups of an IPv6 address node:net accepted (an IPv4 tail becomes two groups). */
const groups = (address: string): Array<number> | undefined => {
  let text = address.toLowerCase()
  const v4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (v4Tail !== null) {
    const [a, b, c, d] = v4Tail.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, v4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = "", tail] = text.split("::")
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => Number.parseInt(g, 16)))
  const front = parse(head)
  const back = tail === undefined ? [] : parse(tail)
  const all = [...front, ...Array<number>(Math.max(0, 8 - front.length - back.length)).fill(0), ...back]
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : undefined
}

/** RFC 5952 text of eight groups: lower-case, the longest run (≥ 2) of zero groups as `::`. */
const compress = (gs: ReadonlyArray<number>): string => {
  let best = -1
  let bestLength = 1
  for (let i = 0; i < 8;) {
    if (gs[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && gs[j] === 0) j++
    if (j - i > bestLength) [best, bestLength] = [i, j - i]
    i = j
  }
  const hex = gs.map((g) => g.toString(16))
  if (best === -1) return hex.join(":")
  return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`
}

export const canonicalAddress = (entry: string): ClientAddress | undefined => {
  if (entry.length > 100) return undefined
  const text = bare(entry)
  if (isIPv4(text)) return { address: text, family: "ipv4", client: text }
  const gs = isIPv6(text) ? groups(text) : undefined
  if (gs === undefined) return undefined
  if (gs.slice(0, 5).every((g) => g === 0) && gs[5] === 0xffff) {
    const [high = 0, low = 0] = gs.slice(6)
    const v4 = `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`
    return { address: v4, family: "ipv4", client: v4 }
  }
  return { address: compress(gs), family: "ipv6", client: compress([...gs.slice(0, 4), 0, 0, 0, 0]) }
}

/** The client of a request: X-Forwarded-For's n-th entry from the right when trusted and an address, else the peer. */
export const clientAddressOf = (
  forwardedFor: string | ReadonlyArray<string> | undefined,
  peer: string | undefined,
  trustProxyHops: number
): ClientAddress | undefined => {
  if (forwardedFor !== undefined && trustProxyHops > 0) {
    const joined = typeof forwardedFor === "string" ? forwardedFor : forwardedFor.join(",")
    const entries = joined.split(",").filter((entry) => entry.trim().length > 0)
    const chosen = entries[Math.max(0, entries.length - trustProxyHops)]
    const address = chosen === undefined ? undefined : canonicalAddress(chosen)
    if (address !== undefined) return address
  }
  return peer === undefined ? undefined : canonicalAddress(peer)
}

export interface ExemptNetworks {
  readonly contains: (address: ClientAddress) => boolean
}

/** RATE_LIMIT_EXEMPT_NETWORKS: comma-separated CIDR networks or bare addresses; a bad item throws (at start-up). */
export const parseExemptNetworks = (list: string): ExemptNetworks => {
  const blocks = new BlockList()
  let count = 0
  for (const item of list.split(",").map((part) => part.trim()).filter((part) => part.length > 0)) {
    const slash = item.indexOf("/")
    const address = canonicalAddress(slash === -1 ? item : item.slice(0, slash))
    const max = address?.family === "ipv6" ? 128 : 32
    let prefix = slash === -1 ? max : Number(item.slice(slash + 1))
    if (address?.family === "ipv4" && item.slice(0, Math.max(0, slash)).includes(":")) prefix -= 96
    if (address === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new Error(`RATE_LIMIT_EXEMPT_NETWORKS: ${JSON.stringify(item)} is not an IPv4 or IPv6 network (CIDR)`)
    }
    blocks.addSubnet(address.address, prefix, address.family)
    count++
  }
  return { contains: (address) => count > 0 && blocks.check(address.address, address.family) }
}
