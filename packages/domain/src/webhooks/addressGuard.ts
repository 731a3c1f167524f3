/**
 * The server-side request forgery guard (CONTRACT §13), pure: which target URLs are acceptable at all, and
 * which resolved addresses an attempt may connect to. Checked at every attempt on the addresses the host
 * resolves to then (a host that resolved to a public address yesterday may resolve to 127.0.0.1 today).
 * The special-purpose ranges are ipaddr.js's registry; what an IPv6 address embeds is decoded here.
 */
import ipaddr from "ipaddr.js"

export interface TargetUrl {
  readonly scheme: "http" | "https"
  /** Lower-cased; an IPv6 literal without brackets. */
  readonly host: string
  readonly port: number
}

const hostnamePattern = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/

/** The longest URL an endpoint may have. */
export const maxUrlLength = 2048

/**
 * Parses an absolute `http`/`https` URL, or answers why it can never be a target: another scheme, user
 * info, a malformed host or port, control characters or spaces.
 */
export const parseTargetUrl = (url: string): TargetUrl | string => {
  if (url.length > maxUrlLength) return `the URL is longer than ${maxUrlLength} characters`
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(url)) return "the URL contains spaces, control characters or backslashes"
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)([/?#].*)?$/.exec(url)
  if (match === null) return "an absolute https URL is expected"
  const scheme = (match[1] ?? "").toLowerCase()
  if (scheme !== "http" && scheme !== "https") return "only https URLs are allowed"
  const authority = match[2] ?? ""
  if (authority.includes("@")) return "a URL with user info is not allowed"
  const hostPort = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(authority)
  if (hostPort === null) return "the URL has no valid host"
  const rawHost = (hostPort[1] ?? "").toLowerCase()
  const port = hostPort[2] === undefined ? (scheme === "https" ? 443 : 80) : Number(hostPort[2])
  if (!(port >= 1 && port <= 65_535)) return "the URL's port is out of range"
  if (rawHost.startsWith("[")) {
    const inner = rawHost.slice(1, -1)
    if (parseIpv6(inner) === undefined) return "the URL has no valid host"
    return { scheme, host: inner, port }
  }
  if (!hostnamePattern.test(rawHost)) return "the URL has no valid host"
  // All-numeric labels must form a dotted-quad address (no 0x7f.1 or 2130706433 spellings).
  // A last label that is a number makes URL parsers read the host as an IPv4 address (0x7f.1, 2130706433):
  // only the plain dotted quad is accepted.
  const host = rawHost.replace(/\.$/, "")
  const last = host.split(".").at(-1) ?? ""
  if (/^(\d+|0x[0-9a-f]*)$/.test(last) && parseIpv4(host) === undefined) return "the URL has no valid host"
  return { scheme, host, port }
}

/** Four octets, or undefined. Only the dotted-quad spelling with decimal octets without leading zeros. */
export const parseIpv4 = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const octets: Array<number> = []
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined
    const n = Number(part)
    if (n > 255) return undefined
    octets.push(n)
  }
  return octets
}

/** Eight 16-bit groups, or undefined. Accepts `::`, an embedded dotted quad and a zone (`%eth0`, ignored). */
export const parseIpv6 = (input: string): ReadonlyArray<number> | undefined => {
  const text = input.split("%")[0] ?? ""
  if (text.length === 0 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groupsOf = (part: string): Array<number> | undefined => {
    if (part === "") return []
    const out: Array<number> = []
    const pieces = part.split(":")
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? ""
      if (piece.includes(".")) {
        if (i !== pieces.length - 1) return undefined
        const v4 = parseIpv4(piece)
        if (v4 === undefined) return undefined
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0))
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined
        out.push(parseInt(piece, 16))
      }
    }
    return out
  }
  const head = groupsOf(halves[0] ?? "")
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? "") : []
  if (head === undefined || tail === undefined) return undefined
  if (halves.length === 1) return head.length === 8 ? head : undefined
  const missing = 8 - head.length - tail.length
  if (missing < 1) return undefined
  return [...head, ...Array<number>(missing).fill(0), ...tail]
}

/** The special-purpose range of an IPv4 address (ipaddr.js's registry names), `unicast` when it is public. */
const ipv4Range = (octets: ReadonlyArray<number>): string => new ipaddr.IPv4([...octets]).range()

const ipv4Of = (high: number, low: number): ReadonlyArray<number> => [high >> 8, high & 0xff, low >> 8, low & 0xff]

/**
 * The IPv4 addresses an IPv6 address embeds, and so reaches through a translator, a relay or a tunnel, named by
 * the mechanism: IPv4-mapped (`::ffff:0:0/96`), IPv4-translated (`::ffff:0:0:0/96`), IPv4-compatible (`::/96`),
 * NAT64 (`64:ff9b::/96`), 6to4 (`2002::/16`), Teredo (`2001::/32`: its server and its client, whose bits are
 * inverted), and an ISATAP interface identifier (`…:0:5efe:a.b.c.d`, `…:200:5efe:a.b.c.d`) under any prefix.
 */
const embeddedIpv4 = (g: ReadonlyArray<number>): ReadonlyArray<readonly [string, ReadonlyArray<number>]> => {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const low = ipv4Of(g6, g7)
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0
  if (zeroHead && g4 === 0 && g5 === 0xffff) return [["IPv4-mapped", low]]
  if (zeroHead && g4 === 0xffff && g5 === 0) return [["IPv4-translated", low]]
  if (zeroHead && g4 === 0 && g5 === 0 && (g6 !== 0 || g7 > 1)) return [["IPv4-compatible", low]]
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return [["NAT64", low]]
  if (g0 === 0x2002) return [["6to4", ipv4Of(g1, g2)]]
  if (g0 === 0x2001 && g1 === 0) return [["Teredo server", ipv4Of(g2, g3)], ["Teredo client", ipv4Of(~g6 & 0xffff, ~g7 & 0xffff)]]
  if ((g4 & 0xfcff) === 0 && g5 === 0x5efe) return [["ISATAP", low]]
  return []
}

/**
 * Why an attempt may not connect to `address` (an IPv4 or IPv6 literal), or null when it may: the special-purpose
 * range it is in (loopback, private, carrierGradeNat, linkLocal, reserved (which holds the benchmarking range
 * 198.18.0.0/15 and the documentation ones), uniqueLocal, multicast, …), or, for an IPv6 address that embeds an
 * IPv4 one, the mechanism and that address's range: whatever embeds or reaches a non-public address is not
 * public. The local-use NAT64 prefix (`64:ff9b:1::/48`) is refused whole: where its IPv4 address sits depends on
 * the network's own prefix length. Anything that is not an address is refused.
 */
export const forbiddenAddressReason = (address: string): string | null => {
  const v4 = parseIpv4(address)
  if (v4 !== undefined) {
    const range = ipv4Range(v4)
    return range === "unicast" ? null : range
  }
  const g = parseIpv6(address)
  if (g === undefined) return "not an IP address"
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "local-use NAT64"
  const embedded = embeddedIpv4(g)
  for (const [mechanism, octets] of embedded) {
    const range = ipv4Range(octets)
    if (range !== "unicast") return `${mechanism}: ${range}`
  }
  if (embedded.length > 0 && embedded[0]?.[0] !== "ISATAP") return null
  const range = new ipaddr.IPv6([...g]).range()
  return range === "unicast" ? null : range
}

/** Whether `host` is an address literal (then it is not resolved). */
export const isAddressLiteral = (host: string): boolean =>
  parseIpv4(host) !== undefined || parseIpv6(host) !== undefined

/**
 * Why an endpoint URL can never be a valid target under the policy (the 422 on `url`), or null: not
 * https (unless private targets are allowed), user info, a malformed host, a forbidden address literal,
 * or `localhost`.
 */
/** The guard's policy: `allowPrivateTargets` lets `http` and private or loopback targets through (development, tests). */
export interface TargetPolicy {
  readonly allowPrivateTargets: boolean
}

/** How a server lets `http` and private targets through: named in the answers that refuse them. */
const privateTargetsSetting = "WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server"

/** Why an `http` target is refused (unless private targets are allowed), naming the setting that allows it. */
export const httpsOnly = `only https URLs are allowed (http needs ${privateTargetsSetting})`

/**
 * The one answer for every target the guard refuses or cannot resolve, whatever the reason (a name not found, no
 * address, a lookup that failed or timed out, a loopback, private or otherwise non-public address, `localhost`),
 * in the 422 and in a delivery's attempt alike: an organiser must not learn which internal names exist. Where
 * private targets are refused it names the setting that allows them.
 */
export const unreachableTarget = (policy: TargetPolicy): string =>
  policy.allowPrivateTargets
    ? "the host has no address a webhook may connect to"
    : `the host has no address a webhook may connect to (loopback and private addresses need ${privateTargetsSetting})`

export const urlProblem = (url: string, policy: TargetPolicy): string | null => {
  const parsed = parseTargetUrl(url)
  if (typeof parsed === "string") return parsed
  if (policy.allowPrivateTargets) return null
  if (parsed.scheme !== "https") return httpsOnly
  if (parsed.host === "localhost" || parsed.host.endsWith(".localhost")) return unreachableTarget(policy)
  if (isAddressLiteral(parsed.host) && forbiddenAddressReason(parsed.host) !== null) return unreachableTarget(policy)
  return null
}
