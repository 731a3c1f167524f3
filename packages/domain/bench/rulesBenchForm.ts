/** The benchmark's form (30 fields of mixed types), its JSON Schema twin for Ajv, and seeded value maps. */
import type { FieldOption, FormField, ValidationRules } from "../src/forms/FormField.js"

// ---------------------------------------------------------------------------------------------
// The form: 30 fields of mixed types, and the JSON Schema that says the same thing.

interface Spec {
  readonly slug: string
  readonly type: string
  readonly required?: boolean
  readonly unique?: boolean
  readonly options?: ReadonlyArray<string>
  readonly multi?: boolean
  readonly rules?: ValidationRules
}

const specs: ReadonlyArray<Spec> = [
  { slug: "email", type: "email", required: true, unique: true },
  { slug: "website", type: "url" },
  { slug: "age", type: "numeric", required: true, rules: { min: 18, max: 99 } },
  { slug: "birth_date", type: "date", rules: { min: "1900-01-01", max: "2010-12-31" } },
  { slug: "arrival", type: "date", required: true, rules: { min: "2027-08-01", max: "2027-08-31" } },
  { slug: "newsletter", type: "boolean" },
  { slug: "phone", type: "phone", required: true },
  { slug: "shirt", type: "select", required: true, options: ["XS", "S", "M", "L", "XL", "XXL"] },
  { slug: "days", type: "checkbox", multi: true, options: ["thu", "fri", "sat", "sun"], rules: { min: 1, max: 3 } },
  { slug: "first_name", type: "text", required: true, rules: { min: 1, max: 50 } },
  { slug: "last_name", type: "text", required: true, rules: { min: 1, max: 80 } },
  { slug: "postcode", type: "text", rules: { regex: "/[0-9]{4} ?[a-z]{2}/i" } },
  { slug: "city", type: "text", rules: { max: 100 } },
  { slug: "country", type: "select", options: ["NL", "BE", "DE", "FR", "UK", "ES"] },
  { slug: "bio", type: "textarea", rules: { max: 2000 } },
  { slug: "iban", type: "text", rules: { regex: "[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}" } },
  { slug: "emergency_phone", type: "phone" },
  { slug: "emergency_name", type: "text", rules: { max: 100 } },
  { slug: "diet", type: "checkbox", multi: true, options: ["vegan", "vegetarian", "halal", "kosher", "gluten_free"] },
  { slug: "shifts", type: "numeric", rules: { min: 1, max: 10 } },
  { slug: "hours", type: "numeric", rules: { min: 0, max: "40" } },
  { slug: "experience", type: "textarea", rules: { max: 1000 } },
  { slug: "car", type: "boolean" },
  { slug: "license_date", type: "date" },
  { slug: "instagram", type: "url" },
  { slug: "company", type: "text", rules: { max: 120 } },
  { slug: "vat", type: "text", rules: { regex: "NL[0-9]{9}B[0-9]{2}" } },
  { slug: "referral", type: "select", options: ["friend", "social", "web", "other"] },
  { slug: "remarks", type: "textarea", rules: { max: 500 } },
  { slug: "code", type: "text", unique: true, rules: { min: 6, max: 6, regex: "[A-Z0-9]+" } }
]

export const fields: ReadonlyArray<FormField> = specs.map((spec, i) => ({
  id: `f-${i}`,
  section_id: null,
  slug: spec.slug,
  label: spec.slug,
  type: spec.type,
  is_required: spec.required ?? false,
  options: spec.options === undefined ? null : spec.options.map((value): FieldOption => ({ value, label: value, tags: [] })),
  validation_rules: spec.rules ?? null,
  is_unique: spec.unique ?? false,
  position: i + 1,
  maps_to: null
}))

/** Ten conditions (form logic) over the same form: chains, sections of answers, every operator family. */
const conditions: Readonly<Record<string, NonNullable<FormField["visible_if"]>>> = {
  website: { "!==": [{ var: "email" }, null] },
  birth_date: { ">=": [{ var: "age" }, 18] },
  days: { in: [{ var: "shirt" }, ["XS", "S", "M", "L", "XL", "XXL"]] },
  postcode: { "==": [{ var: "country" }, "NL"] },
  city: { "!!": [{ var: "postcode" }] },
  emergency_name: { "!!": { var: "emergency_phone" } },
  license_date: { "==": [{ var: "car" }, true] },
  hours: { "<=": [1, { var: "shifts" }, 10] },
  vat: { "!!": [{ var: "company" }] },
  remarks: { or: [{ var: "newsletter" }, { in: ["vegan", { var: "diet" }] }] }
}

/** The same fields with the ten conditions. */
export const fieldsWithConditions: ReadonlyArray<FormField> = fields.map((field) => {
  const condition = conditions[field.slug]
  return condition === undefined ? field : { ...field, visible_if: condition }
})

type JsonSchema = Record<string, unknown>

const num = (bound: number | string | undefined): number | undefined => bound === undefined ? undefined : Number(bound)
const defined = (entries: Record<string, unknown>): JsonSchema =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined))
// Ajv has no `/pattern/flags`: the one case-insensitive pattern is spelled out.
const ajvPattern = (regex: string | undefined): string | undefined =>
  regex === undefined ? undefined : regex === "/[0-9]{4} ?[a-z]{2}/i" ? "^[0-9]{4} ?[a-zA-Z]{2}$" : `^(?:${regex})$`

const propertySchema = (spec: Spec): JsonSchema => {
  const rules = spec.rules ?? {}
  switch (spec.type) {
    case "email":
      return { type: "string", format: "email", maxLength: 254 }
    case "url":
      return { type: "string", format: "uri", pattern: "^[hH][tT][tT][pP][sS]?://" }
    case "numeric":
      return defined({
        type: ["number", "string"],
        pattern: "^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?$",
        minimum: num(rules.min),
        maximum: num(rules.max)
      })
    case "date":
      return {
        type: "string",
        anyOf: [
          defined({ format: "date", formatMinimum: rules.min, formatMaximum: rules.max }),
          { format: "date-time" }
        ]
      }
    case "boolean":
      return { enum: [true, false, 1, 0, "1", "0", "true", "false"] }
    case "phone":
      return { type: "string", pattern: "^\\+?(?:[ ().-]*[0-9]){7,15}[ ().-]*$" }
    default:
      if (spec.multi === true) {
        return {
          anyOf: [
            { type: "string", enum: spec.options },
            defined({ type: "array", items: { enum: spec.options }, minItems: num(rules.min), maxItems: num(rules.max) })
          ]
        }
      }
      if (spec.options !== undefined) return { type: "string", enum: spec.options }
      return defined({
        type: ["string", "number", "boolean"],
        minLength: num(rules.min) ?? (spec.required === true ? 1 : undefined),
        maxLength: num(rules.max),
        pattern: ajvPattern(rules.regex)
      })
  }
}

export const jsonSchema = (required: boolean): JsonSchema => ({
  type: "object",
  properties: Object.fromEntries(specs.map((spec) => [spec.slug, propertySchema(spec)])),
  ...(required ? { required: specs.filter((s) => s.required === true).map((s) => s.slug) } : {})
})

// ---------------------------------------------------------------------------------------------
// 10,000 value maps, valid and invalid mixed, from a fixed seed.

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const random = mulberry32(20270820)
const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)] as A
const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1))
const word = (min: number, max: number): string =>
  Array.from({ length: int(min, max) }, () => String.fromCharCode(97 + int(0, 25))).join("")
const pad = (n: number): string => String(n).padStart(2, "0")

const validValue = (spec: Spec): unknown => {
  switch (spec.slug) {
    case "email":
      return `${word(3, 10)}.${word(2, 8)}@${word(3, 9)}.${pick(["nl", "com", "de"])}`
    case "website":
    case "instagram":
      return `https://${word(3, 10)}.${pick(["nl", "com"])}/${word(0, 8)}`
    case "age":
      return random() < 0.5 ? int(18, 99) : String(int(18, 99))
    case "birth_date":
      return `${int(1950, 2009)}-${pad(int(1, 12))}-${pad(int(1, 28))}`
    case "arrival":
      return random() < 0.8 ? `2027-08-${pad(int(1, 31))}` : `2027-08-${pad(int(1, 31))}T${pad(int(0, 23))}:00:00Z`
    case "newsletter":
    case "car":
      return pick([true, false, "1", "0"])
    case "phone":
    case "emergency_phone":
      return pick([`+31 6 ${int(1000, 9999)} ${int(1000, 9999)}`, `06-${int(10000000, 99999999)}`])
    case "days":
      return ["thu", "fri", "sat", "sun"].slice(0, int(1, 3))
    case "diet":
      return random() < 0.5 ? pick(["vegan", "halal"]) : ["vegan", "gluten_free"]
    case "first_name":
    case "last_name":
    case "city":
    case "emergency_name":
    case "company":
      return word(2, 20)
    case "postcode":
      return `${int(1000, 9999)} ${pick(["AB", "xy", "QZ"])}`
    case "bio":
    case "experience":
    case "remarks":
      return Array.from({ length: int(1, 30) }, () => word(1, 9)).join(" ")
    case "iban":
      return `NL${int(10, 99)}ABNA0${int(100000000, 999999999)}`
    case "shifts":
      return int(1, 10)
    case "hours":
      return pick([int(0, 40), `${int(0, 39)}.5`])
    case "license_date":
      return `20${pad(int(0, 26))}-${pad(int(1, 12))}-${pad(int(1, 28))}`
    case "vat":
      return `NL${int(100000000, 999999999)}B${pad(int(1, 99))}`
    case "code":
      return `${word(3, 3).toUpperCase()}${int(100, 999)}`
    default:
      return pick(spec.options ?? ["x"])
  }
}

const invalidValue = (spec: Spec): unknown => {
  switch (spec.type) {
    case "email":
      return pick(["not-an-email", "a@b", "a b@c.nl"])
    case "url":
      return pick(["example.com", "ftp://x.y", "https://"])
    case "numeric":
      return pick([-5, 1000, "abc", "1,5"])
    case "date":
      return pick(["2027-02-30", "2026-01-01", "31-12-2027", "2027-13-01"])
    case "boolean":
      return pick(["yes", 2])
    case "phone":
      return pick(["12345", "call me", "+31 6 1234 5678 9012 34"])
    default:
      if (spec.multi === true) return pick([["nope"], ["thu", "fri", "sat", "sun"]])
      if (spec.options !== undefined) return "nope"
      return spec.rules?.regex !== undefined ? "@@@" : "x".repeat(3000)
  }
}

const makeMap = (): Record<string, unknown> => {
  const valid = random() < 0.5
  const map: Record<string, unknown> = {}
  for (const spec of specs) {
    if (spec.required !== true && random() < 0.2) continue // optional fields left out
    map[spec.slug] = valid || random() < 0.9 ? validValue(spec) : invalidValue(spec)
  }
  if (!valid && random() < 0.3) delete map["email"] // a missing required field
  return map
}

// Through JSON, as a server receives them: flat strings and parsed objects, not built-up ones.
const viaJson = (map: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(map)) as Record<string, unknown>
export const strictMaps = Array.from({ length: 10_000 }, () => viaJson(makeMap()))
export const relaxedMaps = strictMaps.map((map) => {
  const partial: Record<string, unknown> = {}
  const keys = Object.keys(map)
  for (let k = 0; k < 10 && keys.length > 0; k++) {
    const key = keys.splice(Math.floor(random() * keys.length), 1)[0] as string
    partial[key] = map[key]
  }
  return viaJson(partial)
})

