import { describe, expect, it } from "@effect/vitest"
import { dateKey } from "./dates.js"
import { codePointLength, isBooleanString, isEmail, isNumericString, isPhone, isUrl } from "./types.js"

const table = (name: string, check: (s: string) => boolean, accept: ReadonlyArray<string>, reject: ReadonlyArray<string>) =>
  describe(name, () => {
    it.each(accept.map((s) => [s]))("accepts %j", (s) => expect(check(s)).toBe(true))
    it.each(reject.map((s) => [s]))("rejects %j", (s) => expect(check(s)).toBe(false))
  })

table("phone", isPhone, [
  "1234567", // 7 digits
  "123456789012345", // 15 digits
  "+31 6 1234 5678",
  "(020) 123-45.67",
  "+1 (555) 010-9999"
], [
  "123456", // 6 digits
  "1234567890123456", // 16 digits
  "+",
  "++31612345678",
  "31+612345678",
  "0612345678x",
  "06\t12345678",
  "０６１２３４５６７８" // full-width digits are not digits here
])

table("email", isEmail, [
  "a@b.nl",
  "first.last+tag@sub.example.com",
  "ü@bücher.de",
  `${"a".repeat(64)}@${"b".repeat(185)}.com` // 254
], [
  "a@b",
  "@b.nl",
  "a@@b.nl",
  "a@b@c.nl",
  "a b@c.nl",
  "a@b .nl",
  "a@.b.nl",
  "a@b.nl.",
  "a@b..nl",
  "ab.nl",
  `${"a".repeat(65)}@${"b".repeat(185)}.com` // 255
])

table("url", isUrl, [
  "http://example.com",
  "https://example.com/path?q=1#frag",
  "HTTPS://EXAMPLE.COM",
  "https://user:pw@example.com:8443/x",
  "http://localhost:3000",
  "http://[::1]/",
  "https://bücher.de/ä"
], [
  "example.com",
  "ftp://example.com",
  "https://",
  "https:///path",
  "https//example.com",
  "mailto:a@b.nl",
  "https://exa mple.com",
  "https://example.com/a b",
  "javascript:alert(1)",
  "/relative/path"
])

table("numeric", isNumericString, ["12", "-1.5", "+3", ".5", "1.", "1e3", "1E-3", "-.5e+2", "007"], [
  "",
  ".",
  "e3",
  "1e",
  "1.2.3",
  "0x10",
  "Infinity",
  "NaN",
  "1,5",
  "1 000",
  "--1",
  " 12 " // the validator trims first; the form itself has no spaces
])

table("boolean strings", isBooleanString, ["true", "false", "1", "0"], ["TRUE", "False", "yes", "no", "2", "01", ""])

describe("date", () => {
  it.each([
    ["2027-02-28", 20270228],
    ["2028-02-29", 20280229], // leap year
    ["2000-02-29", 20000229], // divisible by 400
    ["2027-12-31", 20271231],
    ["2027-08-20T08:00", 20270820],
    ["2027-08-20T23:59:59", 20270820],
    ["2027-08-20T08:00:00.123456Z", 20270820],
    ["2027-08-20T08:00Z", 20270820],
    ["2027-08-20T08:00:00+02:00", 20270820],
    ["2027-08-20T00:30:00-11:30", 20270820]
  ])("accepts %s", (s, key) => expect(dateKey(s)).toBe(key))
  it.each([
    "2027-02-29", // not a leap year
    "2027-02-30",
    "1900-02-29", // divisible by 100, not 400
    "2027-04-31",
    "2027-13-01",
    "2027-00-10",
    "2027-01-00",
    "27-01-01",
    "2027-1-01",
    "2027/01/01",
    "2027-01-01 08:00", // space separator
    "2027-01-01t08:00",
    "2027-01-01T",
    "2027-01-01T24:00",
    "2027-01-01T08:60",
    "2027-01-01T08:00:60", // leap seconds refused
    "2027-01-01T08",
    "2027-01-01T08:00:00.",
    "2027-01-01T08:00.5", // a fraction needs seconds
    "2027-01-01T08:00+0200",
    "2027-01-01T08:00+24:00",
    "2027-01-01T08:00Zjunk",
    "2027-01-01x"
  ])("rejects %s", (s) => expect(dateKey(s)).toBe(-1))
})

describe("codePointLength", () => {
  it.each([
    ["", 0],
    ["abc", 3],
    ["😀", 1],
    ["a😀b", 3],
    ["\ud83d", 1], // lone surrogate
    ["\ude00\ud83d", 2]
  ])("%j has %i code points", (s, n) => expect(codePointLength(s)).toBe(n))
})
