/**
 * The evaluator agrees with json-logic-js 2.0.5 (the reference semantics of CONTRACT §18) on random conditions
 * over random values: every operator §18 allows, literals and `var`s of the data's names, data as `readValue`
 * hands it over (strings, numbers, booleans, null and arrays of these).
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { createRequire } from "node:module"
import { checkCondition } from "./checkCondition.js"
import { compileCondition } from "./condition.js"

const jsonLogic = createRequire(import.meta.url)("json-logic-js") as {
  apply: (rule: unknown, data: unknown) => unknown
}

const names = ["a", "b", "c"] as const
const primitive = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.constantFrom(0, 1, -1, 2, 0.5, 10, -0),
  fc.integer({ min: -20, max: 20 }),
  fc.constantFrom("", "0", "1", "a", "b", "ab", "true", "false", "null", " ", "1e1", "10", "2"),
  fc.string({ maxLength: 3 })
)
const value = fc.oneof({ weight: 4, arbitrary: primitive }, { weight: 1, arbitrary: fc.array(primitive, { maxLength: 3 }) })

const { condition } = fc.letrec((tie) => ({
  condition: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    value,
    fc.constantFrom(...names).map((name) => ({ var: name })),
    fc.constantFrom(...names).map((name) => ({ var: [name] })),
    fc.tuple(
      fc.constantFrom("==", "!=", "===", "!==", "<", "<=", ">", ">=", "!", "!!", "and", "or", "in"),
      fc.array(tie("condition"), { maxLength: 4 })
    ).map(([op, args]) => ({ [op]: args })),
    fc.tuple(fc.constantFrom("!", "!!", "and", "or"), tie("condition")).map(([op, arg]) => ({ [op]: arg }))
  )
}))

describe("the evaluator and json-logic-js", () => {
  it("give the same result on random conditions and data", () =>
    fc.assert(
      fc.property(condition, fc.tuple(value, value, value), (rule, [a, b, c]) => {
        const data = { a, b, c }
        const slugs = new Set(names)
        // Arrays as arguments hold only literals (§18): conditions nesting operations in one are refused.
        fc.pre(checkCondition(rule, slugs).problems.length === 0)
        const ours = compileCondition(rule, slugs)(Object.assign(Object.create(null) as object, data))
        expect(ours).toStrictEqual(jsonLogic.apply(rule, data))
      }),
      { numRuns: 3000 }
    ))
})
