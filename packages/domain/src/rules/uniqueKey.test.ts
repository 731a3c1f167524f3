import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { field } from "../testing/rules/rulesTestKit.js"
import { compileRules } from "./compileRules.js"
import { numericKey, phoneKey, U_EMAIL, U_NUMERIC, U_PHONE, U_TEXT, uniqueKeyOf } from "./uniqueKey.js"

/** The key a single unique field of `type` gives `value` through the compiled rules (undefined: no candidate). */
const keyThroughRules = (type: string, value: unknown, options?: ReadonlyArray<string>) => {
  const fields = [field("f", { type, unique: true, ...(options === undefined ? {} : { options }) })]
  return compileRules(fields).strict({ f: value }).unique[0]?.normalized
}

describe("numericKey (CONTRACT §4: numeric fields compare by value)", () => {
  it.each([
    ["12", "12e0"],
    ["12.0", "12e0"],
    ["1.2e1", "12e0"],
    ["012", "12e0"],
    ["+12", "12e0"],
    ["120e-1", "12e0"],
    ["0.12E+2", "12e0"],
    [".5", "5e-1"],
    ["5.", "5e0"],
    ["-1.50", "-15e-1"],
    ["1200", "12e2"],
    ["0", "0"],
    ["-0", "0"],
    ["+0.000", "0"],
    ["0e999999", "0"],
    ["-.0e-5", "0"],
    ["1e400", "1e400"],
    ["10e399", "1e400"],
    ["1e-400", "1e-400"],
    ["1e+21", "1e21"],
    ["1e99999999999999999999999", "1e99999999999999999999999"],
    ["12e-99999999999999999999999", "12e-99999999999999999999999"],
    ["not a number", "not a number"],
    [".", "."],
    ["e5", "e5"],
    ["", ""]
  ])("%j → %j", (text, key) => expect(numericKey(text)).toBe(key))

  it("keeps values apart that a double would merge", () => {
    expect(numericKey("1e400")).not.toBe(numericKey("2e400"))
    expect(numericKey("0.1")).not.toBe(numericKey("0.10000000000000001"))
    expect(numericKey("9007199254740993")).not.toBe(numericKey("9007199254740992"))
  })

  it("a huge exponent at the length limit costs nothing special and stays about the value's length", () => {
    const text = `1e${"9".repeat(9_998)}`
    expect(numericKey(text)).toBe(`1e${"9".repeat(9_998)}`)
    expect(numericKey(`${"0".repeat(5_000)}1${"0".repeat(4_000)}e-4000`)).toBe("1e0")
  })

  // An exact decimal m × 10^e written in several forms: all give one key, and different values different keys.
  const decimal = fc.record({ m: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), e: fc.integer({ min: -40, max: 40 }) })
  const spellings = (m: bigint, e: number): ReadonlyArray<string> => {
    const sign = m < 0n ? "-" : ""
    const digits = (m < 0n ? -m : m).toString()
    const point = digits.length + e // where the decimal point goes in `digits`
    const plain = point <= 0
      ? `0.${"0".repeat(-point)}${digits}`
      : point >= digits.length
      ? `${digits}${"0".repeat(point - digits.length)}`
      : `${digits.slice(0, point)}.${digits.slice(point)}`
    return [`${sign}${digits}e${e}`, `${sign}${plain}`, `${sign}00${digits}.000E${e >= 0 ? "+" : ""}${e}`, `${sign || "+"}${plain}e0`]
  }
  const exact = (m: bigint, e: number, base: number): bigint => m * 10n ** BigInt(e - base)

  it("every spelling of one exact decimal has one key", () =>
    fc.assert(fc.property(decimal, ({ e, m }) => {
      const keys = new Set(spellings(m, e).map(numericKey))
      expect(keys.size).toBe(1)
    })))

  it("two decimals have one key exactly when their values are equal", () =>
    fc.assert(fc.property(decimal, decimal, fc.boolean(), (a, b, scaled) => {
      // half the time b is a rescaled a (same value), so the equal case is tried as often as the other
      const right = scaled ? { m: a.m * 1000n, e: a.e - 3 } : b
      const base = Math.min(a.e, right.e)
      const equal = exact(a.m, a.e, base) === exact(right.m, right.e, base)
      expect(numericKey(`${a.m}e${a.e}`) === numericKey(`${right.m}e${right.e}`)).toBe(equal)
    })))

  it("a JSON number and its own text (String, toExponential) have one key", () =>
    fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
      expect(numericKey(String(n))).toBe(numericKey(n.toExponential()))
      if (Number.isSafeInteger(n)) expect(numericKey(String(n))).toBe(numericKey(`${BigInt(n)}.00`))
    })))
})

describe("phoneKey (CONTRACT §4: phone fields compare by their digits alone)", () => {
  it.each([
    ["+31 6 1234 5678", "31612345678"],
    ["+31-6-12345678", "31612345678"],
    ["31612345678", "31612345678"],
    ["(031) 6.1234.5678", "031612345678"],
    ["0031 6 12345678", "0031612345678"]
  ])("%j → %j", (text, key) => expect(phoneKey(text)).toBe(key))

  it("separators and a leading + never change the key", () =>
    fc.assert(fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.constantFrom("", " ", "-", ".", "(", ")")), { minLength: 7, maxLength: 15 }),
      fc.boolean(),
      (parts, plus) => {
        const digits = parts.map(([d]) => String(d)).join("")
        const written = `${plus ? "+" : ""}${parts.map(([d, sep]) => `${d}${sep}`).join("")}`
        expect(phoneKey(written)).toBe(digits)
      }
    )))
})

describe("uniqueKeyOf", () => {
  it("keys a value by its field's kind", () => {
    expect(uniqueKeyOf(U_TEXT, "  Ann ")).toBe("Ann")
    expect(uniqueKeyOf(U_EMAIL, " Ann@Example.NL ")).toBe("ann@example.nl")
    expect(uniqueKeyOf(U_NUMERIC, " 12.0 ")).toBe("12e0")
    expect(uniqueKeyOf(U_NUMERIC, 12)).toBe("12e0")
    expect(uniqueKeyOf(U_NUMERIC, -0)).toBe("0")
    expect(uniqueKeyOf(U_PHONE, " +31 6 1234 5678 ")).toBe("31612345678")
    expect(uniqueKeyOf(U_TEXT, 12)).toBe("12")
    expect(uniqueKeyOf(U_TEXT, true)).toBe("true")
  })
  it("keys an array as the sorted JSON list of its items' keys", () => {
    expect(uniqueKeyOf(U_TEXT, ["b", " a"])).toBe('["a","b"]')
    expect(uniqueKeyOf(U_NUMERIC, ["2", 1, "1.0"])).toBe('["1e0","1e0","2e0"]')
    expect(uniqueKeyOf(U_PHONE, ["+31 6 1234 5678"])).toBe('["31612345678"]')
  })
})

describe("unique candidates of numeric and phone fields, through the compiled rules", () => {
  it("12, \"12.0\", \"1.2e1\", \"012\" and the JSON number 12 are one value", () => {
    const keys = [12, "12", "12.0", "1.2e1", "012", " +12 ", 12.0].map((v) => keyThroughRules("numeric", v))
    expect(new Set(keys)).toEqual(new Set(["12e0"]))
    expect(keyThroughRules("numeric", "12.5")).not.toBe(keyThroughRules("numeric", "12"))
  })
  it("-0 and 0 are one value", () =>
    expect(new Set([-0, 0, "-0", "0.0", "-0e5"].map((v) => keyThroughRules("numeric", v)))).toEqual(new Set(["0"])))
  it("phones with the same digits are one value, whatever their separators", () => {
    const keys = ["+31 6 1234 5678", "+31-6-12345678", "31612345678", "+31 (6) 1234.5678"].map((v) => keyThroughRules("phone", v))
    expect(new Set(keys)).toEqual(new Set(["31612345678"]))
  })
  it("a multi-value numeric field compares its items by value, in any order", () =>
    expect(keyThroughRules("numeric", ["2", 1], ["1", "2"])).toBe(keyThroughRules("numeric", [2, "1"], ["1", "2"])))
  it("text fields still compare numbers' text: \"12.0\" and \"12\" are two values there", () =>
    expect(keyThroughRules("text", "12.0")).not.toBe(keyThroughRules("text", "12")))
})
