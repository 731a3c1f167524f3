/**
 * JSON written as text, so that `__proto__`, `constructor` and `prototype` really are keys of the
 * body (a JavaScript object literal or JSON.stringify would turn `__proto__` into a prototype).
 */
import fc from "fast-check"

export type Json = null | boolean | number | string | { readonly raw: string } | ReadonlyArray<Json> | JsonObject
export interface JsonObject {
  readonly entries: ReadonlyArray<readonly [string, Json]>
}

const isObject = (j: Json): j is JsonObject => typeof j === "object" && j !== null && "entries" in j
const isRaw = (j: Json): j is { readonly raw: string } => typeof j === "object" && j !== null && "raw" in j

export const write = (j: Json): string => {
  if (Array.isArray(j)) return `[${j.map(write).join(",")}]`
  if (isObject(j)) return `{${j.entries.map(([k, v]) => `${JSON.stringify(k)}:${write(v)}`).join(",")}}`
  if (isRaw(j)) return j.raw
  return JSON.stringify(j)
}

export const object = (...entries: ReadonlyArray<readonly [string, Json]>): JsonObject => ({ entries })

export const dangerousKeys = [
  "__proto__", "constructor", "prototype", "toString", "valueOf", "hasOwnProperty", "__defineGetter__",
  "isPrototypeOf", "status", "id", "submitted_at", "auto_save_count", "polluted"
] as const

/** What a pollution attempt looks like at one spot: `__proto__: {polluted: …}`, `constructor.prototype.polluted`. */
export const pollution: fc.Arbitrary<readonly [string, Json]> = fc.constantFrom<readonly [string, Json]>(
  ["__proto__", object(["polluted", true], ["toString", "x"])],
  ["constructor", object(["prototype", object(["polluted", true])])],
  ["prototype", object(["polluted", true])],
  ["__proto__", object(["__proto__", object(["polluted", 1])])],
  ["__proto__", null],
  ["__proto__", [object(["polluted", true])]]
)

const rawNumbers = fc.constantFrom("1e999", "-1e999", "-0", "0.0000001", "123456789012345678901234567890", "1E-400")

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constantFrom("", " ", "  a@b.nl ", "a@b", "https://x.y", "javascript:alert(1)", "2027-02-30", "2027-08-20",
    "+31 (0)6-1234 5678", "true", "1", "0", "M", "S", "bar", "<script>", "'; DROP TABLE submissions; --", "\u0000",
    "\ud800", "💥".repeat(20)),
  fc.emailAddress()
)

export const leaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: text },
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  rawNumbers.map((raw) => ({ raw }))
)

export const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...dangerousKeys) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  fc.string({ unit: "binary", maxLength: 8 })
)

/** Any JSON value, objects with dangerous keys at every depth. */
export const jsonWith = (keys: fc.Arbitrary<string>): fc.Arbitrary<Json> =>
  fc.letrec<{ json: Json }>((tie) => ({
    json: fc.oneof(
      { depthSize: "small", maxDepth: 5 },
      { weight: 3, arbitrary: leaf },
      fc.array(tie("json"), { maxLength: 6 }),
      fc.tuple(
        fc.array(fc.tuple(keys, tie("json")), { maxLength: 6 }),
        fc.option(pollution, { nil: undefined })
      ).map(([entries, danger]): Json => object(...(danger === undefined ? entries : [danger, ...entries])))
    )
  })).json

/** A `values` map: the schema's slugs, dangerous keys and noise, with values of every type. */
export const valuesOf = (slugs: ReadonlyArray<string>): fc.Arbitrary<Json> => {
  const keys = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...slugs) }, key)
  const value = fc.oneof(
    { weight: 4, arbitrary: leaf },
    fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constantFrom("bar", "stage", "S")), { maxLength: 4 }),
    jsonWith(key)
  )
  return fc.tuple(
    fc.array(fc.tuple(keys, value), { maxLength: 10 }),
    fc.array(pollution, { maxLength: 2 })
  ).map(([entries, dangers]) => object(...dangers, ...entries))
}
