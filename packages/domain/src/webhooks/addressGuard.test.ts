import { describe, expect, it } from "@effect/vitest"
import { forbiddenAddressReason, parseIpv6, urlProblem } from "./addressGuard.js"

describe("the SSRF guard's address table", () => {
  const refused: ReadonlyArray<[string, string]> = [
    ["0.0.0.0", "an unspecified address"],
    ["0.1.2.3", "an unspecified address"],
    ["127.0.0.1", "a loopback address"],
    ["127.255.255.254", "a loopback address"],
    ["10.0.0.1", "a private address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.1.1", "a private address"],
    ["100.64.0.1", "a private address (shared address space)"],
    ["169.254.169.254", "a link-local address"],
    ["224.0.0.1", "a multicast address"],
    ["239.255.255.250", "a multicast address"],
    ["255.255.255.255", "a reserved or broadcast address"],
    ["::", "an unspecified address"],
    ["::1", "a loopback address"],
    ["0:0:0:0:0:0:0:1", "a loopback address"],
    ["fe80::1", "a link-local address"],
    ["fe80::1%eth0", "a link-local address"],
    ["febf::1", "a link-local address"],
    ["fc00::1", "a unique-local address"],
    ["fd12:3456:789a::1", "a unique-local address"],
    ["ff02::1", "a multicast address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["::ffff:7f00:1", "a loopback address"],
    ["::ffff:10.1.2.3", "a private address"],
    ["::ffff:169.254.169.254", "a link-local address"],
    ["::ffff:0.0.0.0", "an unspecified address"],
    ["::127.0.0.1", "a loopback address"],
    ["64:ff9b::192.168.0.1", "a private address"],
    ["not-an-address", "not an IP address"],
    ["1.2.3", "not an IP address"],
    ["01.2.3.4", "not an IP address"]
  ]
  for (const [address, reason] of refused) {
    it(`refuses ${address}: ${reason}`, () => expect(forbiddenAddressReason(address)).toBe(reason))
  }
  const allowed = ["1.1.1.1", "8.8.8.8", "172.15.255.255", "172.32.0.1", "100.128.0.1", "192.169.0.1", "169.253.1.1",
    "223.255.255.255", "2606:4700:4700::1111", "2001:db8::1", "::ffff:8.8.8.8", "64:ff9b::8.8.8.8", "fe7f::1"]
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
  const fine = ["https://hooks.example.com/in?x=1", "https://HOOKS.example.com:8443/a/b", "https://8.8.8.8/", "https://[2606:4700::1]/"]
  for (const url of fine) it(`accepts ${url}`, () => expect(urlProblem(url, { allowPrivateTargets: false })).toBeNull())
  it("with private targets allowed: http and loopback are accepted, user info still is not", () => {
    expect(urlProblem("http://127.0.0.1:8080/hook", { allowPrivateTargets: true })).toBeNull()
    expect(urlProblem("http://localhost:8080/hook", { allowPrivateTargets: true })).toBeNull()
    expect(urlProblem("http://u:p@127.0.0.1/", { allowPrivateTargets: true })).not.toBeNull()
  })
})
