/** Every rule, value by value: accepted and refused at each boundary (CONTRACT §4). */
import { describe, expect, it } from "@effect/vitest"
import { type FieldSpec, cases, field, rulesOf, values } from "../testing/rules/rulesTestKit.js"
import { compileRules } from "./compileRules.js"


const messagesOf = (spec: FieldSpec, value: unknown): ReadonlyArray<string> =>
  compileRules([field("x", spec)]).strict(values({ x: value })).errors?.["x"]?.map((e) => e.message) ?? []


describe("type rules", () => {
  cases("email", { type: "email" }, [
    ["a@b.nl", []],
    ["  A@B.NL  ", []],
    ["a@b", ["email"]],
    [12, ["email"]],
    [true, ["email"]]
  ])
  cases("url", { type: "url" }, [["https://example.com", []], ["example.com", ["url"]], [1, ["url"]]])
  cases("numeric", { type: "numeric" }, [
    [12, []],
    [-1.5, []],
    [0, []],
    ["12", []],
    ["-1.5", []],
    [".5", []],
    ["1e3", []],
    [" 12 ", []],
    ["12a", ["numeric"]],
    ["1,5", ["numeric"]],
    [true, ["numeric"]],
    [false, ["numeric"]]
  ])
  cases("date", { type: "date" }, [
    ["2028-02-29", []],
    ["2027-02-30", ["date"]],
    ["2027-02-29", ["date"]],
    ["2027-08-20T08:00:00Z", []],
    [" 2027-08-20 ", []],
    [20270820, ["date"]],
    [true, ["date"]]
  ])
  cases("boolean", { type: "boolean" }, [
    [true, []],
    [false, []],
    [1, []],
    [0, []],
    ["1", []],
    ["0", []],
    ["true", []],
    ["false", []],
    [" true ", []],
    ["TRUE", ["boolean"]],
    ["yes", ["boolean"]],
    [2, ["boolean"]],
    [0.5, ["boolean"]]
  ])
  cases("phone", { type: "phone" }, [
    ["123456", ["phone"]],
    ["1234567", []],
    ["123456789012345", []],
    ["1234567890123456", ["phone"]],
    ["+31 (6) 12-34.56.78", []],
    [31612345678, ["phone"]]
  ])
  cases("other types get no type rule", { type: "textarea" }, [["anything", []], [12, []], [false, []]])
  it("a type failure stops in, min, max and regex", () =>
    expect(rulesOf({ type: "numeric", options: ["1"], rules: { min: 5, max: 6, regex: "z" } }, "abc"))
      .toEqual(["numeric"]))
})

describe("in", () => {
  cases("a select", { options: ["S", "M", "12", "true"] }, [
    ["S", []],
    [" M ", []],
    ["s", ["in"]], // case-sensitive
    [12, []], // String(12)
    [12.0, []],
    [true, []],
    [false, ["in"]],
    [["S", "M"], []],
    [["S", "L"], ["in"]],
    [["S", 12], []]
  ])
  cases("an empty options list adds no rule and refuses arrays", { options: [] }, [["anything", []], [["a"], ["invalid"]]])
  it("compares numbers as String(n) writes them", () => {
    expect(rulesOf({ options: ["1e+21", "0.1"] }, 1e21)).toEqual([])
    expect(rulesOf({ options: ["0.10"] }, 0.1)).toEqual(["in"])
  })
})

describe("min and max", () => {
  cases("numeric, bounds as numbers, inclusive", { type: "numeric", rules: { min: 1, max: 10 } }, [
    [0.999, ["min"]],
    [1, []],
    [10, []],
    [10.001, ["max"]],
    ["1", []],
    ["0.5", ["min"]],
    ["1e1", []],
    ["1.1e1", ["max"]]
  ])
  cases("numeric, bounds as numeric strings", { type: "numeric", rules: { min: "-1.5", max: "1e3" } }, [
    [-1.5, []],
    [-1.6, ["min"]],
    [1000, []],
    ["1000.5", ["max"]]
  ])
  cases("date, date bounds", { type: "date", rules: { min: "2027-08-01", max: "2027-08-31" } }, [
    ["2027-07-31", ["min"]],
    ["2027-08-01", []],
    ["2027-08-01T00:00:00Z", []],
    ["2027-08-31T23:59:59+14:00", []], // the written date counts, not the instant
    ["2027-09-01T00:00", ["max"]]
  ])
  cases("date, date-time bounds use their date", { type: "date", rules: { min: "2027-08-01T18:00:00Z", max: "2027-08-31T06:00Z" } }, [
    ["2027-08-01T08:00", []],
    ["2027-08-01", []],
    ["2027-07-31T23:59", ["min"]],
    ["2027-08-31T20:00", []]
  ])
  cases("text, length in code points", { rules: { min: 2, max: 3 } }, [
    ["a", ["min"]],
    ["ab", []],
    ["abc", []],
    ["abcd", ["max"]],
    ["😀", ["min"]], // one code point, two UTF-16 units
    ["😀😀😀", []], // three code points, six units
    ["😀😀😀😀", ["max"]],
    ["  ab  ", []], // trimmed first
    [12345, []], // numbers and booleans on non-numeric fields are not bounded
    [true, []]
  ])
  cases("arrays count items", { options: ["a", "b", "c", "d"], rules: { min: 2, max: 3 } }, [
    [["a"], ["min"]],
    [["a", "b"], []],
    [["a", "b", "c"], []],
    [["a", "b", "c", "d"], ["max"]],
    ["abcd", ["in", "max"]] // a single string still counts characters
  ])
  cases("arrays on date fields compare each item's date", {
    type: "date",
    options: ["2027-08-01", "2027-09-01"],
    rules: { max: "2027-08-31" }
  }, [[["2027-08-01"], []], [["2027-08-01", "2027-09-01"], ["max"]]])
  it("writes the bound in the message", () => {
    expect(messagesOf({ rules: { min: 3 } }, "a")).toEqual(["Must be at least 3 characters."])
    expect(messagesOf({ rules: { max: 1 } }, "ab")).toEqual(["Must be at most 1 character."])
    expect(messagesOf({ type: "numeric", rules: { min: "1e3" } }, 5)).toEqual(["Must be at least 1000."])
    expect(messagesOf({ type: "date", rules: { min: "2027-08-01T10:00Z" } }, "2027-01-01"))
      .toEqual(["Must be on or after 2027-08-01."])
    expect(messagesOf({ options: ["a", "b"], rules: { min: 2 } }, ["a"])).toEqual(["Select at least 2 options."])
  })
})

describe("regex", () => {
  cases("bare", { rules: { regex: "[0-9]{4}[A-Z]{2}" } }, [
    ["1234AB", []],
    [" 1234AB ", []],
    ["1234AB5", ["regex"]], // whole string
    ["1234ab", ["regex"]]
  ])
  cases("slash form with a flag", { rules: { regex: "/[0-9]{4}[a-z]{2}/i" } }, [["1234AB", []], ["1234A", ["regex"]]])
  cases("/a/ is the pattern a", { rules: { regex: "/a/" } }, [["a", []], ["/a/", ["regex"]]])
  cases("/usr/bin is bare", { rules: { regex: "/usr/bin" } }, [["/usr/bin", []], ["usr", ["regex"]]])
  cases("numbers and booleans match as written", { rules: { regex: "[0-9]+" } }, [[1234, []], [1.5, ["regex"]], [true, ["regex"]]])
  cases("every array item must match", { options: ["a1", "b2", "cc"], rules: { regex: "[a-z][0-9]" } }, [
    [["a1", "b2"], []],
    [["a1", "cc"], ["regex"]]
  ])
})

