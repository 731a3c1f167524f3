import { describe, expect, it } from "@effect/vitest"
import { compilePattern, parsePattern, patternProblem } from "./regex.js"

describe("parsePattern", () => {
  it.each([
    ["/a/", "a", ""],
    ["/a/i", "a", "i"],
    ["/a/smi", "a", "ims"],
    ["/a/ii", "a", "i"],
    ["/a\\/b/", "a\\/b", ""],
    ["//", "", ""],
    ["/usr/bin", "/usr/bin", ""], // the last slash is followed by other letters
    ["/a/g", "/a/g", ""], // g is not a flag here
    ["/", "/", ""],
    ["a/b/i", "a/b/i", ""], // must start with a slash
    ["^[0-9]{4}$", "^[0-9]{4}$", ""]
  ])("%s → source %j, flags %j", (pattern, source, flags) =>
    expect(parsePattern(pattern)).toEqual({ source, flags }))
})

describe("compilePattern", () => {
  it.each([
    ["[0-9]{4}[A-Z]{2}", "1234AB", true],
    ["[0-9]{4}[A-Z]{2}", "1234AB!", false], // whole string, not a substring
    ["[0-9]{4}[A-Z]{2}", "x1234AB", false],
    ["/[a-z]+/", "abc", true],
    ["/[a-z]+/i", "ABC", true],
    ["/[a-z]+/", "ABC", false],
    ["/usr/bin", "/usr/bin", true],
    ["/a.b/s", "a\nb", true],
    ["/a.b/", "a\nb", false],
    ["/^a$/m", "a\nb", false], // multi-line anchors, still a whole-string match
    [".", "😀", true], // a code point, not a UTF-16 unit
    ["(?P<y>\\d{4})", "2027", true]
  ])("%s on %j → %s", (pattern, input, expected) => expect(compilePattern(pattern).test(input)).toBe(expected))

  it("reports patterns that do not compile on RE2", () => {
    expect(patternProblem("(a")).toMatch(/missing closing \)/)
    expect(patternProblem("a{2,1}")).toBeDefined()
    expect(patternProblem("(a)\\1")).toBeDefined() // backreferences are not regular
    expect(patternProblem("[0-9]+")).toBeUndefined()
  })

  it("matches (a*)*b against 10,000 'a' in linear time", () => {
    const pattern = compilePattern("(a*)*b")
    const input = "a".repeat(10_000)
    const start = performance.now()
    expect(pattern.test(input)).toBe(false)
    expect(pattern.test(`${input}b`)).toBe(true)
    // measured about 3 ms (cold); the bound is far looser
    expect(performance.now() - start).toBeLessThan(1000)
  })
})
