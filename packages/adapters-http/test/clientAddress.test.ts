import { assert, describe, it } from "@effect/vitest"
import { canonicalAddress } from "../src/http/clientAddress.js"
import { forwardedClient } from "../src/http/clientIp.js"
import { parseExemptNetworks } from "../src/index.js"

describe("canonicalAddress (CONTRACT §8: one client, one key)", () => {
  // Every spelling in a row names the same client; the last column is the key a limit counts.
  const sameClient: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
    [["192.0.2.1", " 192.0.2.1 ", "192.0.2.1:8080", "::ffff:192.0.2.1", "::FFFF:192.0.2.1", "[::ffff:192.0.2.1]:443", "::ffff:c000:201", "0:0:0:0:0:ffff:192.0.2.1"], "192.0.2.1"],
    [[
      "2001:db8::1",
      "2001:DB8::1",
      "2001:0db8:0000:0000:0000:0000:0000:0001",
      "2001:db8:0:0::1",
      "[2001:db8::1]",
      "[2001:db8::1]:443",
      "fe80::1%eth0".replace("fe80::1", "2001:db8::1"),
      "2001:db8::ffff:ffff:ffff:ffff"
    ], "2001:db8::"],
    [["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::7", "[2001:DB8:1:2:FFFF::]:80"], "2001:db8:1:2::"],
    [["::1", "[::1]", "0:0:0:0:0:0:0:1"], "::"],
    [["fe80::1%eth0", "fe80::abcd%25en0", "FE80::1"], "fe80::"]
  ]
  for (const [spellings, key] of sameClient) {
    it(`${spellings[0]} and its other spellings count as ${key}`, () => {
      for (const spelling of spellings) assert.strictEqual(canonicalAddress(spelling)?.client, key, spelling)
    })
  }

  it("two /64 networks are two clients; the whole address stays canonical", () => {
    assert.notStrictEqual(canonicalAddress("2001:db8:0:1::1")?.client, canonicalAddress("2001:db8:0:2::1")?.client)
    assert.strictEqual(canonicalAddress("2001:0DB8::0001")?.address, "2001:db8::1")
  })

  const notAnAddress = ["", "unknown", "garbage", "1.2.3", "1.2.3.4.5", "256.1.1.1", "2001:db8:::1", "[2001:db8::1", "x".repeat(6000), `1.2.3.4${" ".repeat(200)}`, "1.2.3.4/24", "_hidden", "::ffff:999.1.1.1"]
  for (const entry of notAnAddress) {
    it(`${JSON.stringify(entry.slice(0, 20))}${entry.length > 20 ? "…" : ""} is not an address`, () => {
      assert.isUndefined(canonicalAddress(entry))
    })
  }

  it("a forwarded entry that is not an address is ignored (the peer is the client)", () => {
    assert.isUndefined(forwardedClient(`${"a".repeat(6000)}`, 1))
    assert.strictEqual(forwardedClient("garbage, 2001:DB8::5", 1)?.client, "2001:db8::")
    assert.isUndefined(forwardedClient("198.51.100.7, garbage", 1))
  })
})

describe("parseExemptNetworks (RATE_LIMIT_EXEMPT_NETWORKS)", () => {
  const { networks, problems } = parseExemptNetworks("10.0.0.0/8, 192.0.2.7, 2001:DB8:AB::/48, ::ffff:198.51.100.0/120")
  const inside = (entry: string) => {
    const address = canonicalAddress(entry)
    return address !== undefined && networks.contains(address)
  }

  it("reads IPv4 and IPv6 networks, bare addresses and IPv4-mapped networks", () => {
    assert.deepStrictEqual(problems, [])
    assert.deepStrictEqual(networks.networks, ["10.0.0.0/8", "192.0.2.7/32", "2001:db8:ab::/48", "198.51.100.0/24"])
  })

  it("contains the canonical forms of its clients", () => {
    for (const entry of ["10.1.2.3", "::ffff:10.9.9.9", "192.0.2.7", "[2001:db8:ab:1::9]:443", "2001:0DB8:00AB::1", "198.51.100.200"]) {
      assert.isTrue(inside(entry), entry)
    }
    for (const entry of ["11.0.0.1", "192.0.2.8", "2001:db8:ac::1", "198.51.101.1", "::1"]) assert.isFalse(inside(entry), entry)
  })

  it("names every malformed network", () => {
    const { problems: bad } = parseExemptNetworks("10.0.0.0/33, nonsense, 2001:db8::/129, 10.0.0.0/x, 1.2.3.4")
    assert.strictEqual(bad.length, 4)
    assert.include(bad[0] ?? "", "10.0.0.0/33")
  })

  it("an empty list contains nobody", () => {
    const empty = parseExemptNetworks(" ")
    assert.deepStrictEqual([empty.problems, empty.networks.networks], [[], []])
  })
})
