/**
 * Client addresses in canonical form: an entry as a peer or a proxy wrote it — with
 * brackets, a port or a zone, in any case or spelling — becomes one string per client, or undefined
 * when it is not an IP address. The limiter key never grows with the input.
 */
import { isIPv4, isIPv6 } from "node:net"

/** Longer than any spelling of an address with brackets, zone and port: not an address. */
const maxEntryLength = 100

/** `[v6]:port`, `[v6]`, `v4:port`, `v6%zone` → the bare address (not yet checked). */
const bareAddress = (entry: string): string => {
  let text = entry.trim()
  const bracketed = /^\[([^\]]*)\](?::\d{1,5})?$/.exec(text)
  if (bracketed !== null) text = bracketed[1] ?? ""
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(":"))
  const zone = text.indexOf("%")
  return zone === -1 ? text : text.slice(0, zone)
}

/** The eight 16-bit groups of a valid IPv6 address in the WHATWG URL serialiser's form (hex only, one `::`). */
const groupsOf = (serialised: string): ReadonlyArray<number> => {
  const [head = "", tail] = serialised.split("::")
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)))
  const front = parse(head)
  const back = tail === undefined ? [] : parse(tail)
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back]
}

/**
 * The URL serialiser compresses and lower-cases IPv6 and writes an embedded IPv4 tail as hex; an address
 * `node:net` accepts and the URL parser would not is no address (never a throw, so never a 500).
 */
const serialiseV6 = (address: string): string | undefined => {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1)
  } catch {
    return undefined
  }
}

export interface CanonicalAddress {
  /** The whole address, canonical: IPv4 dotted, IPv6 compressed and lower-case. */
  readonly address: string
  readonly family: "ipv4" | "ipv6"
  /** What a limit counts: the address for IPv4, its /64 network for IPv6. */
  readonly client: string
}

export const canonicalAddress = (entry: string): CanonicalAddress | undefined => {
  if (entry.length > maxEntryLength) return undefined
  const bare = bareAddress(entry)
  if (isIPv4(bare)) return { address: bare, family: "ipv4", client: bare }
  const serialised = isIPv6(bare) ? serialiseV6(bare) : undefined
  if (serialised === undefined) return undefined
  const groups = groupsOf(serialised)
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6)
    const v4 = `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`
    return { address: v4, family: "ipv4", client: v4 }
  }
  const network = serialiseV6(`${groups.slice(0, 4).map((group) => group.toString(16)).join(":")}::`) ?? serialised
  return { address: serialised, family: "ipv6", client: network }
}
