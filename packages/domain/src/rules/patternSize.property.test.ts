import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { RE2JS } from "re2js"
import { patternSizeBound } from "./patternSize.js"

// Pieces of RE2 syntax the bound must read right: escapes, classes (a `]` first, POSIX names),
// quoting, flags, named groups, braces that are not repeats, and a surrogate pair.
const atoms = [
  "a", "\\w", "\\pL", "\\p{Greek}", "\\PN", "[a-c]", "[^\\]x]", "[]a]", "[[:digit:]z]", ".", "\\d", "😀", "\\b", "^", "$",
  "(?i)", "\\Qx+*\\E", "\\x41", "\\x{263a}", "\\101", "{", "}", "{2", "a{,3}", "(?i:k)", "(?s).", "\\.", "\\Q{3}"
]

const pattern: fc.Arbitrary<string> = fc.letrec<{ re: string }>((tie) => ({
  re: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...atoms),
    fc.tuple(tie("re"), tie("re")).map(([a, b]) => a + b),
    fc.tuple(tie("re"), tie("re")).map(([a, b]) => `(${a}|${b})`),
    fc.tuple(tie("re"), fc.constantFrom("*", "+", "?", "*?", "+?")).map(([a, q]) => `(?:${a})${q}`),
    fc.tuple(tie("re"), fc.nat(6), fc.option(fc.nat(6))).map(([a, n, more]) =>
      `(${a}){${n}${more === null ? "" : `,${more === 0 ? "" : n + more}`}}`)
  )
})).re

describe("patternSizeBound", () => {
  it("is never below the program re2js compiles", () =>
    fc.assert(
      fc.property(pattern, (source) => {
        let size: number
        try {
          size = RE2JS.compile(source).programSize()
        } catch {
          return // not a pattern RE2 compiles: refused as such
        }
        expect(patternSizeBound(source)).toBeGreaterThanOrEqual(size)
      }),
      { numRuns: 3000 }
    ))

  it.each([
    ["(\\w+\\s?){1000}", 6002],
    ["(a{30}){30}", 962],
    ["^\\+?[0-9 ()-]{7,20}$", 39],
    ["(mon|tue|wed|thu|fri|sat|sun)", 30]
  ])("%s: a bound close to its %i instructions", (source, size) => {
    const bound = patternSizeBound(source)
    expect(bound).toBeGreaterThanOrEqual(size)
    expect(bound).toBeLessThan(size * 1.4)
  })
})
