import { describe, expect, it } from "@effect/vitest"
import { checkSizeLimits, defaultSizeLimits } from "./sizeLimits.js"

const mapOf = (count: number, value: unknown = "x"): Record<string, unknown> => {
  const map = Object.create(null) as Record<string, unknown>
  for (let i = 0; i < count; i++) map[`k${i}`] = value
  return map
}

const astral = "😀" // one code point, two UTF-16 units

describe("checkSizeLimits", () => {
  it("accepts 500 keys and refuses 501, under `values`", () => {
    expect(checkSizeLimits(mapOf(500), defaultSizeLimits)).toBeUndefined()
    const errors = checkSizeLimits(mapOf(501), defaultSizeLimits)
    expect(errors?.["values"]).toEqual([{ rule: "max_length", message: "Must have at most 500 keys." }])
    expect(Object.keys(errors ?? {})).toEqual(["values"])
  })

  it.each([
    ["10,000 ASCII characters", "a".repeat(10_000), false],
    ["10,001 ASCII characters", "a".repeat(10_001), true],
    ["10,000 astral code points (20,000 units)", astral.repeat(10_000), false],
    ["10,001 astral code points", astral.repeat(10_001), true],
    ["9,999 code points and an astral one", `${"a".repeat(9_999)}${astral}`, false],
    ["spaces count: the limit applies before trimming", ` ${"a".repeat(9_999)} `, true]
  ])("%s", (_, value, refused) => {
    const errors = checkSizeLimits({ bio: value }, defaultSizeLimits)
    expect(errors?.["bio"]).toEqual(refused ? [{ rule: "max_length", message: "Must be at most 10000 characters." }] : undefined)
  })

  it("accepts 200 array items and refuses 201", () => {
    expect(checkSizeLimits({ picks: Array.from({ length: 200 }, () => "a") }, defaultSizeLimits)).toBeUndefined()
    expect(checkSizeLimits({ picks: Array.from({ length: 201 }, () => "a") }, defaultSizeLimits)?.["picks"])
      .toEqual([{ rule: "max_length", message: "Must have at most 200 items." }])
  })

  it("checks strings inside arrays", () => {
    expect(checkSizeLimits({ picks: ["a", astral.repeat(10_000)] }, defaultSizeLimits)).toBeUndefined()
    expect(checkSizeLimits({ picks: ["a", astral.repeat(10_001)] }, defaultSizeLimits)?.["picks"]?.[0]?.rule)
      .toBe("max_length")
  })

  it("checks every key, slug or not, including __proto__ as JSON.parse creates it", () => {
    const body = JSON.parse(`{"__proto__":"${"a".repeat(10_001)}","unknown":"${"b".repeat(10_001)}"}`) as unknown
    const errors = checkSizeLimits(body, defaultSizeLimits)
    expect(Object.keys(errors ?? {})).toEqual(["__proto__", "unknown"])
    expect(Object.getPrototypeOf(errors)).toBeNull()
  })

  it("reports too many keys and the long values together", () => {
    const map = mapOf(501)
    map["k3"] = "a".repeat(10_001)
    expect(Object.keys(checkSizeLimits(map, defaultSizeLimits) ?? {})).toEqual(["values", "k3"])
  })

  it("keeps both errors when a key is itself named values", () => {
    const map = mapOf(501)
    map["values"] = "a".repeat(10_001)
    expect(checkSizeLimits(map, defaultSizeLimits)?.["values"]).toHaveLength(2)
  })

  it("honours configured limits and ignores what is not an object", () => {
    const limits = { maxValuesKeys: 1, maxStringLength: 2, maxArrayItems: 1 }
    expect(Object.keys(checkSizeLimits({ a: "abc", b: [1, 2] }, limits) ?? {})).toEqual(["values", "a", "b"])
    for (const input of [null, undefined, "x", 1, ["a"]]) expect(checkSizeLimits(input, limits)).toBeUndefined()
  })
})
