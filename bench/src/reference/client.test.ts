import { describe, expect, it } from "vitest"
import { canonicalAddress, clientAddressOf, parseExemptNetworks } from "./client.js"

describe("the reference's client address (CONTRACT §8, as ours reads it)", () => {
  it("canonicalises IPv4, ports, brackets, zones, mapped IPv4 and IPv6 spellings; groups IPv6 by /64", () => {
    expect(canonicalAddress("10.1.2.3:8080")?.client).toBe("10.1.2.3")
    expect(canonicalAddress("::ffff:10.1.2.3")?.client).toBe("10.1.2.3")
    expect(canonicalAddress("[::FFFF:a01:203]:443")?.client).toBe("10.1.2.3")
    expect(canonicalAddress("2001:0DB8:0:0:1:0:0:1")).toEqual({ address: "2001:db8::1:0:0:1", family: "ipv6", client: "2001:db8::" })
    expect(canonicalAddress("[2001:db8:1:2:3:4:5:6]")?.client).toBe("2001:db8:1:2::")
    expect(canonicalAddress("fe80::1%eth0")?.address).toBe("fe80::1")
    expect(canonicalAddress("1:0:0:2:0:0:0:3")?.address).toBe("1:0:0:2::3")
    expect(canonicalAddress("not-an-address")).toBeUndefined()
    expect(canonicalAddress("1".repeat(101))).toBeUndefined()
  })

  it("takes the n-th X-Forwarded-For entry from the right, the leftmost when fewer, the peer when not an address", () => {
    expect(clientAddressOf("1.1.1.1, 2.2.2.2, 3.3.3.3", "127.0.0.1", 2)?.client).toBe("2.2.2.2")
    expect(clientAddressOf(["1.1.1.1", "2.2.2.2"], "127.0.0.1", 5)?.client).toBe("1.1.1.1")
    expect(clientAddressOf("garbage", "::ffff:127.0.0.1", 1)?.client).toBe("127.0.0.1")
    expect(clientAddressOf(undefined, "10.0.0.7", 1)?.client).toBe("10.0.0.7")
  })

  it("exempts the networks listed, in either family, and refuses a malformed list", () => {
    const exempt = parseExemptNetworks("10.0.0.0/8, 2001:db8::/32, 192.0.2.7")
    expect(exempt.contains(canonicalAddress("10.200.0.1")!)).toBe(true)
    expect(exempt.contains(canonicalAddress("11.0.0.1")!)).toBe(false)
    expect(exempt.contains(canonicalAddress("2001:db8:5::1")!)).toBe(true)
    expect(exempt.contains(canonicalAddress("192.0.2.7")!)).toBe(true)
    expect(parseExemptNetworks("::ffff:10.0.0.0/104").contains(canonicalAddress("10.9.9.9")!)).toBe(true)
    expect(() => parseExemptNetworks("10.0.0.0/33")).toThrow(/RATE_LIMIT_EXEMPT_NETWORKS/)
  })
})
