import { describe, expect, it } from "@effect/vitest"
import { forbiddenAddressReason, parseIpv6, unreachableTarget, urlProblem } from "./addressGuard.js"

describe("the SSRF guard's address table", () => {
  const refused: ReadonlyArray<[string, string]> = [
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["169.254.169.254", "linkLocal"],
    ["192.0.0.8", "reserved"],
    // The benchmarking range, and the documentation ranges.
    ["198.18.0.1", "reserved"],
    ["198.19.255.255", "reserved"],
    ["192.0.2.10", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["fe80::1", "linkLocal"],
    ["fe80::1%eth0", "linkLocal"],
    ["febf::1", "linkLocal"],
    ["fec0::1", "deprecatedSiteLocal"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456:789a::1", "uniqueLocal"],
    ["ff02::1", "multicast"],
    ["100::1", "discard"],
    ["2001:db8::1", "reserved"],
    ["2001:2::1", "benchmarking"],
    // IPv4-mapped, IPv4-translated (SIIT), IPv4-compatible: judged by their IPv4 address.
    ["::ffff:127.0.0.1", "IPv4-mapped: loopback"],
    ["::ffff:7f00:1", "IPv4-mapped: loopback"],
    ["::ffff:10.1.2.3", "IPv4-mapped: private"],
    ["::ffff:169.254.169.254", "IPv4-mapped: linkLocal"],
    ["::ffff:0.0.0.0", "IPv4-mapped: unspecified"],
    ["::ffff:198.18.0.1", "IPv4-mapped: reserved"],
    ["::ffff:0:10.0.0.1", "IPv4-translated: private"],
    ["::ffff:0:127.0.0.1", "IPv4-translated: loopback"],
    ["::127.0.0.1", "IPv4-compatible: loopback"],
    ["::10.0.0.1", "IPv4-compatible: private"],
    // NAT64: the well-known prefix by its IPv4 address; the local-use prefix whole.
    ["64:ff9b::192.168.0.1", "NAT64: private"],
    ["64:ff9b::7f00:1", "NAT64: loopback"],
    ["64:ff9b::a9fe:a9fe", "NAT64: linkLocal"],
    ["64:ff9b:1::a00:1", "local-use NAT64"],
    ["64:ff9b:1:ab::8.8.8.8", "local-use NAT64"],
    // 6to4: the relay's IPv4 network in the second and third groups.
    ["2002:7f00:1::1", "6to4: loopback"],
    ["2002:a00:1::1", "6to4: private"],
    ["2002:c0a8:101::", "6to4: private"],
    ["2002:c612:1::1", "6to4: reserved"],
    // Teredo: the server's address, and the client's with its bits inverted.
    ["2001:0:a00:1::fefe:fefe", "Teredo server: private"],
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo client: private"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "Teredo client: loopback"],
    // ISATAP interface identifiers under any prefix.
    ["2606:4700::5efe:10.0.0.1", "ISATAP: private"],
    ["2606:4700::200:5efe:127.0.0.1", "ISATAP: loopback"],
    ["fe80::5efe:8.8.8.8", "linkLocal"],
    ["not-an-address", "not an IP address"],
    ["1.2.3", "not an IP address"],
    ["01.2.3.4", "not an IP address"]
  ]
  for (const [address, reason] of refused) {
    it(`refuses ${address}: ${reason}`, () => expect(forbiddenAddressReason(address)).toBe(reason))
  }
  const allowed = ["1.1.1.1", "8.8.8.8", "172.15.255.255", "172.32.0.1", "100.128.0.1", "192.169.0.1", "169.253.1.1",
    "198.17.255.255", "198.20.0.1", "223.255.255.255", "2606:4700:4700::1111", "::ffff:8.8.8.8", "::ffff:0:8.8.8.8",
    "64:ff9b::8.8.8.8", "2002:808:808::1", "2001:0:808:808::fefe:fefe", "2606:4700::5efe:8.8.8.8", "fe7f::1"]
  for (const address of allowed) {
    it(`allows ${address}`, () => expect(forbiddenAddressReason(address)).toBeNull())
  }
  it("parses IPv6 spellings to eight groups", () => {
    expect(parseIpv6("::")).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(parseIpv6("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0])
    expect(parseIpv6("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304])
    expect(parseIpv6("1:2:3:4:5:6:7:8:9")).toBeUndefined()
    expect(parseIpv6("1::2::3")).toBeUndefined()
    expect(parseIpv6("12345::")).toBeUndefined()
  })
})

describe("target URLs that can never be valid (422 on url)", () => {
  const never: ReadonlyArray<string> = [
    "http://hooks.example.com/in", "ftp://example.com/", "https://user:pw@example.com/", "https://@example.com/",
    "https://127.0.0.1/", "https://[::1]/", "https://[::ffff:10.0.0.1]/x", "https://10.0.0.1:8443/", "https://localhost/",
    "https://a.localhost/", "https://exa mple.com/", "example.com/in", "https://", "https://0x7f.0.0.1/", "https://2130706433/",
    "https://example.com:99999/", "https://exa_mple.com/"
  ]
  for (const url of never) it(`refuses ${url}`, () => expect(urlProblem(url, { allowPrivateTargets: false })).not.toBeNull())
  it("gives one answer for every host that is not public, whatever it is", () => {
    const hosts = ["127.0.0.1", "[::1]", "localhost", "a.localhost", "10.0.0.1", "198.18.0.1", "[::ffff:0:10.0.0.1]",
      "[2002:a00:1::1]", "[64:ff9b::a00:1]", "[64:ff9b:1::a00:1]", "[2001:0:4136:e378:8000:63bf:f5ff:fffe]", "[2001:db8::1]"]
    const answers = hosts.map((host) => urlProblem(`https://${host}/in`, { allowPrivateTargets: false }))
    expect(new Set(answers)).toEqual(new Set([unreachableTarget({ allowPrivateTargets: false })]))
  })
  it("names the setting that allows http and private targets", () => {
    expect(urlProblem("http://127.0.0.1:8080/hook", { allowPrivateTargets: false })).toBe(
      "only https URLs are allowed (http needs WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server)"
    )
    expect(urlProblem("https://10.0.0.1/hook", { allowPrivateTargets: false })).toBe(
      "the host has no address a webhook may connect to (loopback and private addresses need WEBHOOK_ALLOW_PRIVATE_TARGETS=true on the server)"
    )
  })
  const fine = ["https://hooks.example.com/in?x=1", "https://HOOKS.example.com:8443/a/b", "https://8.8.8.8/", "https://[2606:4700::1]/"]
  for (const url of fine) it(`accepts ${url}`, () => expect(urlProblem(url, { allowPrivateTargets: false })).toBeNull())
  it("with private targets allowed: http and loopback are accepted, user info still is not", () => {
    expect(urlProblem("http://127.0.0.1:8080/hook", { allowPrivateTargets: true })).toBeNull()
    expect(urlProblem("http://localhost:8080/hook", { allowPrivateTargets: true })).toBeNull()
    expect(urlProblem("http://u:p@127.0.0.1/", { allowPrivateTargets: true })).not.toBeNull()
  })
})
