/**
 * The server-side request forgery guard (CONTRACT §13), pure: which target URLs are acceptable at all, and
 * which resolved addresses an attempt may connect to. Checked at every attempt on the addresses the host
 * resolves to then (a host that resolved to a public address yesterday may resolve to 127.0.0.1 today).
 */

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

const ipv4Reason = (o: ReadonlyArray<number>): string | null => {
  const [a = 0, b = 0, c = 0] = o
  if (a === 0) return "an unspecified address"
  if (a === 127) return "a loopback address"
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "a private address"
  if (a === 100 && b >= 64 && b <= 127) return "a private address (shared address space)"
  if (a === 169 && b === 254) return "a link-local address"
  if (a === 192 && b === 0 && c === 0) return "a reserved address"
  if (a >= 224 && a <= 239) return "a multicast address"
  if (a >= 240) return "a reserved or broadcast address"
  return null
}

/**
 * Why an attempt may not connect to `address` (an IPv4 or IPv6 literal), or null when it may. IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`) and NAT64 (`64:ff9b::a.b.c.d`) addresses are judged
 * by their IPv4 address. Anything that is not an address is refused.
 */
export const forbiddenAddressReason = (address: string): string | null => {
  const v4 = parseIpv4(address)
  if (v4 !== undefined) return ipv4Reason(v4)
  const g = parseIpv6(address)
  if (g === undefined) return "not an IP address"
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  const embedded = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 0) return "an unspecified address"
  if (zeroHead && g5 === 0 && g6 === 0 && g7 === 1) return "a loopback address"
  if (zeroHead && (g5 === 0xffff || g5 === 0)) return ipv4Reason(embedded)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Reason(embedded)
  if ((g0 & 0xffc0) === 0xfe80) return "a link-local address"
  if ((g0 & 0xffc0) === 0xfec0) return "a site-local address"
  if ((g0 & 0xfe00) === 0xfc00) return "a unique-local address"
  if ((g0 & 0xff00) === 0xff00) return "a multicast address"
  return null
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

export const urlProblem = (url: string, policy: TargetPolicy): string | null => {
  const parsed = parseTargetUrl(url)
  if (typeof parsed === "string") return parsed
  if (policy.allowPrivateTargets) return null
  if (parsed.scheme !== "https") return "only https URLs are allowed"
  if (parsed.host === "localhost" || parsed.host.endsWith(".localhost")) return "the host is a loopback name"
  if (isAddressLiteral(parsed.host)) {
    const reason = forbiddenAddressReason(parsed.host)
    if (reason !== null) return `the host is ${reason}`
  }
  return null
}
