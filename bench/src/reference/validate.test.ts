import { describe, expect, it } from "vitest"
import { flowValues } from "../flow.js"
import { dayOf, fieldChecks, pickValues, validate } from "./validate.js"

const allValues = (n: number) => {
  const [a, b, c] = flowValues(n, "0b7e6a5c-1d2f-4a3b-9c8d-7e6f5a4b3c2d")
  return { ...a, ...b, ...c }
}

describe("the reference server's inlined validation", () => {
  it("checks the 30 fields of the bench form", () => {
    expect(fieldChecks.size).toBe(30)
  })

  it("accepts every flow's values strictly and offers the email, lower-cased, as the unique claim", () => {
    for (let n = 0; n < 12; n++) {
      const result = validate(allValues(n), true)
      expect(result.errors).toBeUndefined()
      expect(result.unique).toEqual([{ slug: "email", normalized: "volunteer.0b7e6a5c-1d2f-4a3b-9c8d-7e6f5a4b3c2d@example.org" }])
    }
  })

  it("skips required fields in relaxed mode and reports them in strict mode", () => {
    expect(validate({ city: "Gent" }, false).errors).toBeUndefined()
    const strict = validate({ city: "Gent" }, true).errors ?? {}
    expect(strict["email"]).toEqual([{ rule: "required", message: "This field is required." }])
    expect(Object.keys(strict).sort()).toEqual(
      ["agree_terms", "birth_date", "country", "days", "email", "emergency_name", "emergency_phone", "first_name",
        "last_name", "phone", "roles", "shifts_wanted", "shirt_size"].sort()
    )
  })

  it("reports the rules of the contract in their order, and all of in/min/max/regex", () => {
    const errors = validate({
      email: "not-an-email",
      phone: "12",
      birth_date: "2027-02-30",
      postcode: "0123 AB",
      days: ["fri", "xmas", "sat", "sun", "mon"],
      shifts_wanted: "11",
      hours_per_shift: true,
      referral_code: 1234,
      first_name: { nested: true },
      website: "ftp://example.org",
      agree_terms: "yes",
      motivation: "too short",
      available_from: "2027-07-31T10:00:00+02:00",
      city: ["Gent"]
    }, false).errors ?? {}
    const rules = Object.fromEntries(Object.entries(errors).map(([slug, list]) => [slug, list.map((e) => e.rule)]))
    expect(rules).toEqual({
      email: ["email"],
      phone: ["phone"],
      birth_date: ["date"],
      postcode: ["regex"],
      days: ["in", "max"],
      shifts_wanted: ["max"],
      hours_per_shift: ["numeric"],
      first_name: ["invalid"],
      website: ["url"],
      agree_terms: ["boolean"],
      motivation: ["min"],
      available_from: ["min"],
      city: ["invalid"]
    })
  })

  it("treats empty values as empty: only required applies", () => {
    const errors = validate({ email: "  ", days: [], city: null }, true).errors ?? {}
    expect(errors["email"]?.map((e) => e.rule)).toEqual(["required"])
    expect(errors["days"]?.map((e) => e.rule)).toEqual(["required"])
    expect(errors["city"]).toBeUndefined()
  })

  it("keeps only the form's slugs, never a prototype key", () => {
    const picked = pickValues(JSON.parse('{"__proto__": {"x": 1}, "status": "submitted", "city": "Gent"}') as Record<string, unknown>)
    expect(Object.keys(picked)).toEqual(["city"])
    expect(Object.getPrototypeOf(picked)).toBeNull()
  })

  it("reads calendar days of dates and RFC 3339 date-times", () => {
    expect(dayOf("2028-02-29")).toBe("2028-02-29")
    expect(dayOf("2027-02-29")).toBeUndefined()
    expect(dayOf("2027-08-20T23:59:59.5-05:00")).toBe("2027-08-20")
    expect(dayOf("2027-08-20T24:00")).toBeUndefined()
  })
})
