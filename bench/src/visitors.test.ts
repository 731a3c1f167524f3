import { isIPv4, isIPv6 } from "node:net"
import { describe, expect, it } from "vitest"
// The server's own reading of the client address: the visitors must be what it counts as one client each.
import { canonicalAddress } from "../../packages/adapters-http/src/http/clientAddress.js"
import { forwardedClient } from "../../packages/adapters-http/src/http/clientIp.js"
import { parseExemptNetworks } from "../../packages/adapters-http/src/http/exemptNetworks.js"
import { ipv4Visitors, limitVariables, trafficEnv, visitorAddress } from "./visitors.js"

describe("visitor addresses", () => {
  it("gives 100,000 flows 100,000 distinct, valid IPv4 addresses in 10.0.0.0/8, never its network or broadcast address", () => {
    const addresses = Array.from({ length: 100_000 }, (_, n) => visitorAddress(n))
    expect(addresses.filter((a) => !isIPv4(a) || !a.startsWith("10.") || a === "10.0.0.0" || a === "10.255.255.255")).toEqual([])
    expect(new Set(addresses).size).toBe(100_000)
    expect(visitorAddress(0)).toBe("10.0.0.1")
    expect(visitorAddress(255)).toBe("10.0.1.0")
    expect(visitorAddress(ipv4Visitors - 1)).toBe("10.255.255.254")
    expect(visitorAddress(ipv4Visitors)).toBe("10.0.0.1")
  })

  it("gives each flow its own IPv6 /64, so a limit grouping by /64 still sees one visitor per flow", () => {
    const addresses = Array.from({ length: 70_000 }, (_, n) => visitorAddress(n, "ipv6"))
    expect(addresses.filter((a) => !isIPv6(a))).toEqual([])
    expect(new Set(addresses.map((a) => canonicalAddress(a)?.client)).size).toBe(70_000)
    expect(visitorAddress(65_537, "ipv6")).toBe("2001:db8:1:1::1")
  })

  it("is what a server trusting one hop takes as the client, and no exempt network of a default start", () => {
    const address = visitorAddress(12_345)
    expect(forwardedClient(address, 1)?.client).toBe(address)
    expect(forwardedClient(`203.0.113.9, ${address}`, 1)?.client).toBe(address)
    // Without the trusted hop (the stress variant) the header is not read: the peer is the client.
    expect(forwardedClient(address, 0)).toBeUndefined()
    const noneExempt = parseExemptNetworks("").networks
    expect(noneExempt.contains(canonicalAddress(address)!)).toBe(false)
    // The servers never inherit a limit variable from the bench's environment.
    expect(limitVariables).toContain("RATE_LIMIT_EXEMPT_NETWORKS")
    expect(trafficEnv("visitors")).toEqual({ TRUST_PROXY_HOPS: "1" })
    expect(trafficEnv("one-address")["SUBMIT_RATE_LIMIT_PER_HOUR"]).toBe("100000000")
  })
})
