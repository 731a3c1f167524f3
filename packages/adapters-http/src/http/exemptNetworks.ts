/** RATE_LIMIT_EXEMPT_NETWORKS: CIDR networks whose clients no client limit counts. */
import { BlockList } from "node:net"
import { type CanonicalAddress, canonicalAddress } from "./clientAddress.js"

export interface ExemptNetworks {
  readonly contains: (address: CanonicalAddress) => boolean
  /** The networks as given, canonical (for the start-up log and tests). */
  readonly networks: ReadonlyArray<string>
}

/** `a.b.c.d/n`, `v6/n`, or a bare address (/32, /128); an IPv4-mapped IPv6 network is its IPv4 one. */
export const parseExemptNetworks = (
  list: string
): { readonly networks: ExemptNetworks; readonly problems: ReadonlyArray<string> } => {
  const blocks = new BlockList()
  const networks: Array<string> = []
  const problems: Array<string> = []
  for (const item of list.split(",").map((part) => part.trim()).filter((part) => part.length > 0)) {
    const slash = item.indexOf("/")
    const addressText = slash === -1 ? item : item.slice(0, slash)
    const address = canonicalAddress(addressText)
    const prefixText = slash === -1 ? undefined : item.slice(slash + 1)
    let prefix = address === undefined ? Number.NaN : address.family === "ipv4" ? 32 : 128
    if (prefixText !== undefined) prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN
    // `::ffff:10.0.0.0/104` names the IPv4 network 10.0.0.0/8.
    if (address?.family === "ipv4" && addressText.includes(":") && prefixText !== undefined) prefix -= 96
    const max = address?.family === "ipv6" ? 128 : 32
    if (address === undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      problems.push(`${JSON.stringify(item)} is not an IPv4 or IPv6 network (CIDR)`)
      continue
    }
    blocks.addSubnet(address.address, prefix, address.family)
    networks.push(`${address.address}/${prefix}`)
  }
  return {
    networks: {
      contains: (address) => networks.length > 0 && blocks.check(address.address, address.family),
      networks
    },
    problems
  }
}

export const noExemptNetworks: ExemptNetworks = { contains: () => false, networks: [] }
