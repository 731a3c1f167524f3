import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { type FormField, normalizeField } from "../forms/FormField.js"
import { seedField } from "../memory/Seed.js"
import { mergeValues, pickSchemaValues } from "./SubmissionValues.js"

const fields: ReadonlyArray<FormField> = ["email", "name", "constructor", "status"].map((slug) =>
  normalizeField(seedField({ id: `f-${slug}`, slug }))
)

describe("pickSchemaValues", () => {
  it("keeps only the schema's slugs, from a client's JSON with prototype keys", () => {
    const body = JSON.parse(
      `{"email":"a@b.nl","__proto__":{"polluted":true},"constructor":"c","id":"x","status":"s","prototype":1,"unknown":2}`
    ) as Record<string, unknown>
    const picked = pickSchemaValues(fields, body)
    expect(Object.getPrototypeOf(picked)).toBeNull()
    expect(Object.keys(picked).sort()).toEqual(["constructor", "email", "status"])
    expect(picked["constructor"]).toBe("c")
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })

  it("ignores inherited keys: only own keys count", () => {
    const proto = { email: "inherited@b.nl" }
    const body = Object.create(proto) as Record<string, unknown>
    body["name"] = "Ada"
    expect(Object.keys(pickSchemaValues(fields, body))).toEqual(["name"])
  })

  it("property: the result's keys are the body's own keys that are slugs", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.oneof(fc.constantFrom("email", "name", "__proto__", "constructor", "id"), fc.string()), fc.jsonValue()), (body) => {
        const picked = pickSchemaValues(fields, body)
        const slugs = new Set(fields.map((f) => f.slug))
        expect(Object.keys(picked).sort()).toEqual(Object.keys(body).filter((k) => slugs.has(k)).sort())
      })
    )
  })
})

describe("mergeValues", () => {
  it("the patch wins, null included; other saved keys stay", () => {
    const merged = mergeValues({ email: "a@b.nl", name: "Ada" }, { name: null, shirt: "M" })
    expect({ ...merged }).toEqual({ email: "a@b.nl", name: null, shirt: "M" })
    expect(Object.getPrototypeOf(merged)).toBeNull()
  })

  it("a `__proto__` own key is copied as data, never as a prototype", () => {
    const patch = JSON.parse(`{"__proto__":{"x":1}}`) as Record<string, unknown>
    const merged = mergeValues({}, patch)
    expect(Object.getPrototypeOf(merged)).toBeNull()
    expect(Object.hasOwn(merged, "__proto__")).toBe(true)
  })

  it("property: every key of either map is kept, the patch's value wins", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue()), (saved, patch) => {
        const merged = mergeValues(saved, patch)
        for (const key of Object.keys(saved)) expect(Object.hasOwn(merged, key)).toBe(true)
        for (const key of Object.keys(patch)) expect(merged[key]).toBe(patch[key])
      })
    )
  })
})
