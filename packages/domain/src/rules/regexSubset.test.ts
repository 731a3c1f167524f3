import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { RE2JS } from "re2js"
import { compilePattern, parsePattern } from "./regex.js"
import { matchSubset, parseSubset } from "./regexSubset.js"

const re2Flags = (flags: string): number =>
  (flags.includes("i") ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes("m") ? RE2JS.MULTILINE : 0) |
  (flags.includes("s") ? RE2JS.DOTALL : 0)

/** What re2js itself answers, or undefined when it does not compile the pattern. */
const re2 = (pattern: string, s: string): boolean | undefined => {
  const { flags, source } = parsePattern(pattern)
  let compiled: RE2JS
  try {
    compiled = RE2JS.compile(source, re2Flags(flags))
  } catch {
    return undefined
  }
  return compiled.testExact(s)
}

describe("parseSubset", () => {
  it.each([
    "NL[0-9]{9}B[0-9]{2}",
    "[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}",
    "[A-Z0-9]+",
    "^[0-9]{4} ?[A-Z]{2}$",
    "\\d{4}-\\d{2}-\\d{2}",
    "[a-z]+@[a-z]+\\.[a-z]{2,}",
    "[^@]+@[^@.]+",
    ".{3,10}",
    "a\\.b\\-c"
  ])("takes the deterministic pattern %s", (source) => expect(parseSubset(source, "")).toBeDefined())

  it.each([
    ["[a-z]*[a-z]*", ""], // two ways to split
    ["a?a", ""],
    ["[a-z]+[0-9]*[a-z]", ""], // the optional digits do not separate the letters
    ["(a*)*b", ""], // groups
    ["a|b", ""],
    ["a*?", ""], // lazy
    ["[[:alpha:]]+", ""],
    ["\\w+", "i"], // folding changes \w
    ["é+", "i"], // folding beyond ASCII
    ["\\bword", ""],
    ["a{2,1}", ""],
    ["[]a]", ""],
    ["x😀", ""]
  ])("leaves %s (flags %j) to re2js", (source, flags) => expect(parseSubset(source, flags)).toBeUndefined())

  it("matches greedily, each run as long as it may be", () => {
    expect(parseSubset("[0-9]{1,3}x?[a-z]{2}", "")).toBeUndefined() // x? could split the letters two ways
    const atoms = parseSubset("[0-9]{1,3}-?[a-z]{2}", "")
    expect(atoms).toBeDefined()
    if (atoms === undefined) return
    expect(matchSubset(atoms, "123-ab")).toBe(true)
    expect(matchSubset(atoms, "12ab")).toBe(true)
    expect(matchSubset(atoms, "1234ab")).toBe(false)
    expect(matchSubset(atoms, "ab")).toBe(false)
    expect(matchSubset(atoms, "1abc")).toBe(false)
  })
})

const atomArb = fc.tuple(
  fc.constantFrom(
    "a", "b", "k", "s", "K", "S", "-", "\\.", "é", " ", "0", "/", ".", "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "\\-",
    "[a-c]", "[^a]", "[ab-]", "[-b]", "[0-9]", "[\\d]", "[\\s]", "[\\w]", "[^\\d]", "[A-Z]", "[a-zé]", "[k]", "[^k]",
    "[s-t]", "[^\\s]", "[ \\-.]", "[^a-z]", "[J-L]", "(a|b)", "[[:alpha:]]", "[]a]", "[j-l]", "[R-T]", "[\\s\\d]", "[^\\sa]", "[.]", "[\\.]", "[a\\-z]", "\\/", "[/]", "[é-ë]", "\\*", "\\[", "\\]", "\\{", "\\}", "\\^", "\\$", "\\\\", "[\\^]", "[\\]]", "[^\\w]", "[\\W]", "\\n", "[a-]", "}", "]", "{", "^", "$", "ſ", "[ſ]", "[^K]"
  ),
  fc.constantFrom("", "", "", "?", "*", "+", "{2}", "{1,3}", "{0,2}", "{2,}", "{0}", "*?")
).map(([atom, repeat]) => atom + repeat)

const patternArb = fc
  .tuple(
    fc.boolean(),
    fc.array(atomArb, { maxLength: 5 }),
    fc.boolean(),
    fc.constantFrom("", "i", "m", "s", "is", "ims")
  )
  .map(([start, atoms, end, flags]) => `/${start ? "^" : ""}${atoms.join("")}${end ? "$" : ""}/${flags}`)

const stringArb = fc
  .array(
    fc.constantFrom("a", "b", "c", "k", "K", "s", "S", "ſ", "\u212a", "-", ".", " ", "0", "5", "\n", "\r", "\t", "é", "É", "A", "Z", "_", "ı", "İ", "/", "😀", "*", "[", "]", "{", "}", "^", "$", "\\", "ë", "j", "l", "T", "r", "\u0000", "\u00ff", "\u0100"),
    { maxLength: 8 }
  )
  .map((chars) => chars.join(""))


describe("the single-pass matcher against re2js", () => {
  it("answers exactly as re2js, for generated patterns and strings", () =>
    fc.assert(
      fc.property(patternArb, fc.array(stringArb, { minLength: 1, maxLength: 12 }), (pattern, inputs) => {
        const expected = inputs.map((s) => re2(pattern, s))
        fc.pre(expected.every((answer) => answer !== undefined))
        const compiled = compilePattern(pattern)
        expect(inputs.map((s) => compiled.test(s))).toEqual(expected)
      }),
      { numRuns: 3000 }
    ), 60_000)

  it("the generated patterns exercise the single-pass matcher often", () => {
    const samples = fc.sample(patternArb, { numRuns: 500, seed: 42 })
    const taken = samples.filter((p) => {
      const { flags, source } = parsePattern(p)
      return parseSubset(source, flags) !== undefined
    })
    expect(taken.length).toBeGreaterThan(100)
  })

  it("is linear: a long run that fails at its end costs one pass", () => {
    const pattern = compilePattern("[a-z]*[0-9]")
    const input = "a".repeat(100_000)
    const start = performance.now()
    expect(pattern.test(input)).toBe(false)
    expect(pattern.test(`${input}1`)).toBe(true)
    expect(performance.now() - start).toBeLessThan(1000)
  })
})
