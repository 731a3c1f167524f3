/**
 * The evaluator against JSON Logic's own shared test cases, for the operators CONTRACT §18 allows.
 *
 * Transcribed from `tests.json` of the JSON Logic project (https://github.com/jwadhams/json-logic, file
 * tests.json, by Jeremy Wadhams, MIT licence), which json-logic-js's own tests download: every case whose rule uses
 * only `var == != === !== < <= > >= ! !! and or in` and literals, with a `var` as §18 allows it (one literal name,
 * no default, no dotted path) over an object of data. Cases of other operators (`if`, `?:`, `cat`, arithmetic,
 * `merge`, `missing`, `filter`, `map`, `reduce`, `all`, `none`, `some`, `min`, `max`, `%`) and the `var` forms §18
 * refuses are left out; the rest are as the file has them, except that a name the file leaves out of the data
 * (`{ "var": "b" }` on `{ "a": 1 }`) is given as null, since §18's data holds every slug of the form.
 */
import { describe, expect, it } from "@effect/vitest"
import { checkCondition } from "./checkCondition.js"
import { compileCondition } from "./condition.js"

type Case = readonly [rule: unknown, data: Record<string, unknown>, expected: unknown]

const shared: ReadonlyArray<string | Case> = [
  "# Non-rules get passed through",
  [true, {}, true],
  [false, {}, false],
  [17, {}, 17],
  [3.14, {}, 3.14],
  ["apple", {}, "apple"],
  [null, {}, null],
  [["a", "b"], {}, ["a", "b"]],

  "# Single operator tests",
  [{ "==": [1, 1] }, {}, true],
  [{ "==": [1, "1"] }, {}, true],
  [{ "==": [1, 2] }, {}, false],
  [{ "===": [1, 1] }, {}, true],
  [{ "===": [1, "1"] }, {}, false],
  [{ "===": [1, 2] }, {}, false],
  [{ "!=": [1, 2] }, {}, true],
  [{ "!=": [1, 1] }, {}, false],
  [{ "!=": [1, "1"] }, {}, false],
  [{ "!==": [1, 2] }, {}, true],
  [{ "!==": [1, 1] }, {}, false],
  [{ "!==": [1, "1"] }, {}, true],
  [{ ">": [2, 1] }, {}, true],
  [{ ">": [1, 1] }, {}, false],
  [{ ">": [1, 2] }, {}, false],
  [{ ">": ["2", 1] }, {}, true],
  [{ ">=": [2, 1] }, {}, true],
  [{ ">=": [1, 1] }, {}, true],
  [{ ">=": [1, 2] }, {}, false],
  [{ ">=": ["2", 1] }, {}, true],
  [{ "<": [2, 1] }, {}, false],
  [{ "<": [1, 1] }, {}, false],
  [{ "<": [1, 2] }, {}, true],
  [{ "<": ["1", 2] }, {}, true],
  [{ "<": [1, 2, 3] }, {}, true],
  [{ "<": [1, 1, 3] }, {}, false],
  [{ "<": [1, 4, 3] }, {}, false],
  [{ "<=": [2, 1] }, {}, false],
  [{ "<=": [1, 1] }, {}, true],
  [{ "<=": [1, 2] }, {}, true],
  [{ "<=": ["1", 2] }, {}, true],
  [{ "<=": [1, 2, 3] }, {}, true],
  [{ "<=": [1, 4, 3] }, {}, false],
  [{ "!": [false] }, {}, true],
  [{ "!": false }, {}, true],
  [{ "!": [true] }, {}, false],
  [{ "!": true }, {}, false],
  [{ "!": 0 }, {}, true],
  [{ "!": 1 }, {}, false],
  [{ "or": [true, true] }, {}, true],
  [{ "or": [false, true] }, {}, true],
  [{ "or": [true, false] }, {}, true],
  [{ "or": [false, false] }, {}, false],
  [{ "or": [false, false, true] }, {}, true],
  [{ "or": [false, false, false] }, {}, false],
  [{ "or": [false] }, {}, false],
  [{ "or": [true] }, {}, true],
  [{ "or": [1, 3] }, {}, 1],
  [{ "or": [3, false] }, {}, 3],
  [{ "or": [false, 3] }, {}, 3],
  [{ "and": [true, true] }, {}, true],
  [{ "and": [false, true] }, {}, false],
  [{ "and": [true, false] }, {}, false],
  [{ "and": [false, false] }, {}, false],
  [{ "and": [true, true, true] }, {}, true],
  [{ "and": [true, true, false] }, {}, false],
  [{ "and": [false] }, {}, false],
  [{ "and": [true] }, {}, true],
  [{ "and": [1, 3] }, {}, 3],
  [{ "and": [3, false] }, {}, false],
  [{ "and": [false, 3] }, {}, false],
  [{ "in": ["Bart", ["Bart", "Homer", "Lisa", "Marge", "Maggie"]] }, {}, true],
  [{ "in": ["Milhouse", ["Bart", "Homer", "Lisa", "Marge", "Maggie"]] }, {}, false],
  [{ "in": ["Spring", "Springfield"] }, {}, true],
  [{ "in": ["i", "team"] }, {}, false],

  "Truthy and falsy definitions matter in Boolean operations",
  [{ "!": [[]] }, {}, true],
  [{ "!!": [[]] }, {}, false],
  [{ "and": [[], true] }, {}, []],
  [{ "or": [[], true] }, {}, true],
  [{ "!": [0] }, {}, true],
  [{ "!!": [0] }, {}, false],
  [{ "and": [0, true] }, {}, 0],
  [{ "or": [0, true] }, {}, true],
  [{ "!": [""] }, {}, true],
  [{ "!!": [""] }, {}, false],
  [{ "and": ["", true] }, {}, ""],
  [{ "or": ["", true] }, {}, true],
  [{ "!": ["0"] }, {}, false],
  [{ "!!": ["0"] }, {}, true],
  [{ "and": ["0", true] }, {}, true],
  [{ "or": ["0", true] }, {}, "0"],

  "# Compound Tests",
  [{ "and": [{ ">": [3, 1] }, true] }, {}, true],
  [{ "and": [{ ">": [3, 1] }, false] }, {}, false],
  [{ "and": [{ ">": [3, 1] }, { "!": true }] }, {}, false],
  [{ "and": [{ ">": [3, 1] }, { "<": [1, 3] }] }, {}, true],

  "# Data-Driven",
  [{ "var": ["a"] }, { a: 1 }, 1],
  [{ "var": ["b"] }, { a: 1, b: null }, null],
  [{ "var": "a" }, { a: 1 }, 1],
  [{ "var": "b" }, { a: 1, b: null }, null],
  [{ "in": [{ "var": "filling" }, ["apple", "cherry"]] }, { filling: "apple" }, true]
]

/** The data as the form logic hands it over: a null-prototype map holding every slug. */
const dataOf = (data: Record<string, unknown>) => Object.assign(Object.create(null) as Record<string, unknown>, data)

describe("JSON Logic's shared tests (tests.json), for the operators §18 allows", () => {
  const cases = shared.filter((item): item is Case => typeof item !== "string")
  it("transcribes the file's cases for the allowed operators", () => expect(cases.length).toBe(97))
  it.each(cases.map((c, i) => [i, JSON.stringify(c[0]), c] as const))("#%i %s", (_, __, [rule, data, expected]) => {
    const slugs = new Set(Object.keys(data))
    expect(checkCondition(rule, slugs).problems).toEqual([])
    expect(compileCondition(rule, slugs)(dataOf(data))).toEqual(expected)
  })
})
