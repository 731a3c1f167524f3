/**
 * The reference server's validation of the bench form's 30 fields, written out by hand in plain JS
 * (CONTRACT §4): what a team without a rules compiler would write for this one form.
 */

export interface FieldError {
  readonly rule: string
  readonly message: string
}
export type FieldErrors = Record<string, Array<FieldError>>
export interface UniqueClaim {
  readonly slug: string
  readonly normalized: string
}
export interface ValidationResult {
  readonly errors: FieldErrors | undefined
  readonly unique: Array<UniqueClaim>
}

type Check = (value: unknown, strict: boolean) => Array<FieldError> | undefined

const err = (rule: string, message: string): Array<FieldError> => [{ rule, message }]
const invalid = () => err("invalid", "Must be a single text, number or true/false value.")

const isEmpty = (v: unknown): boolean =>
  v === null || v === undefined || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0)

const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

/** The common prologue: `invalid`, then `required`; undefined means "go on with the field's own rules". */
const prologue = (v: unknown, required: boolean, strict: boolean, options: boolean): Array<FieldError> | null | undefined => {
  if (Array.isArray(v)) {
    if (!options && v.length > 0) return invalid()
    for (const item of v) if (typeof item !== "string" && typeof item !== "number") return invalid()
  } else if (v !== null && v !== undefined && typeof v !== "string" && typeof v !== "boolean" &&
    !(typeof v === "number" && Number.isFinite(v))) {
    return invalid()
  }
  if (isEmpty(v)) return required && strict ? err("required", "This field is required.") : null
  return undefined
}

const lengthBounds = (n: number, min: number | undefined, max: number | undefined, unit: string): Array<FieldError> => {
  const out: Array<FieldError> = []
  const u = unit === "" ? "" : ` ${unit}`
  if (min !== undefined && n < min) out.push({ rule: "min", message: `Must be at least ${min}${u}.` })
  if (max !== undefined && n > max) out.push({ rule: "max", message: `Must be at most ${max}${u}.` })
  return out
}

const text = (required: boolean, min?: number, max?: number, regex?: RegExp): Check => (v, strict) => {
  const pre = prologue(v, required, strict, false)
  if (pre !== undefined) return pre ?? undefined
  if (typeof v !== "string") return undefined // numbers and booleans on text fields are not bounded
  const s = v.trim()
  const out = lengthBounds(codePoints(s), min, max, "characters")
  if (regex !== undefined && !regex.test(s)) out.push({ rule: "regex", message: "Must match the required format." })
  return out.length === 0 ? undefined : out
}

const emailPattern = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
const email = (required: boolean): Check => (v, strict) => {
  const pre = prologue(v, required, strict, false)
  if (pre !== undefined) return pre ?? undefined
  const s = typeof v === "string" ? v.trim() : ""
  return emailPattern.test(s) && s.length <= 254 ? undefined : err("email", "Must be a valid email address.")
}

const urlPattern = /^https?:\/\/(?:[^\s/?#@]*@)?[^\s/?#@:[\]]+(?::\d{0,5})?(?:[/?#]\S*)?$/i
const url = (required: boolean): Check => (v, strict) => {
  const pre = prologue(v, required, strict, false)
  if (pre !== undefined) return pre ?? undefined
  return typeof v === "string" && urlPattern.test(v.trim()) ? undefined : err("url", "Must be a valid http or https URL.")
}

const phone = (required: boolean): Check => (v, strict) => {
  const pre = prologue(v, required, strict, false)
  if (pre !== undefined) return pre ?? undefined
  const s = typeof v === "string" ? v.trim() : "x"
  const digits = s.replace(/\D/g, "").length
  return /^\+?[\d\s\-.()]+$/.test(s) && digits >= 7 && digits <= 15
    ? undefined
    : err("phone", "Must be a valid phone number of 7 to 15 digits.")
}

const datePattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?$/
/** The calendar day `YYYY-MM-DD` of a valid date or date-time, else undefined. */
export const dayOf = (s: string): string | undefined => {
  const m = datePattern.exec(s)
  if (m === null) return undefined
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate()
  return month >= 1 && month <= 12 && day >= 1 && day <= last ? s.slice(0, 10) : undefined
}
const date = (required: boolean, min: string, max: string): Check => (v, strict) => {
  const pre = prologue(v, required, strict, false)
  if (pre !== undefined) return pre ?? undefined
  const day = typeof v === "string" ? dayOf(v.trim()) : undefined
  if (day === undefined) return err("date", "Must be a valid date (YYYY-MM-DD, optionally with a time).")
  const out: Array<FieldError> = []
  if (day < min) out.push({ rule: "min", message: `Must be on or after ${min}.` })
  if (day > max) out.push({ rule: "max", message: `Must be on or before ${max}.` })
  return out.length === 0 ? undefined : out
}

const numericPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/
const numeric = (required: boolean, min: number, max: number): Check => (v, strict) => {
  const pre = prologue(v, required, strict, false)
  if (pre !== undefined) return pre ?? undefined
  const n = typeof v === "number" ? v : typeof v === "string" && numericPattern.test(v.trim()) ? Number(v.trim()) : NaN
  if (Number.isNaN(n)) return err("numeric", "Must be a number.")
  const out = lengthBounds(n, min, max, "")
  return out.length === 0 ? undefined : out
}

const boolean = (required: boolean): Check => (v, strict) => {
  const pre = prologue(v, required, strict, false)
  if (pre !== undefined) return pre ?? undefined
  const ok = typeof v === "boolean" || v === 0 || v === 1 ||
    (typeof v === "string" && ["true", "false", "1", "0"].includes(v.trim()))
  return ok ? undefined : err("boolean", "Must be true or false.")
}

/** Single or multiple choice: every item must be an option; arrays are bounded by their item count. */
const choice = (required: boolean, options: ReadonlyArray<string>, min?: number, max?: number): Check => {
  const allowed = new Set(options)
  return (v, strict) => {
    const pre = prologue(v, required, strict, true)
    if (pre !== undefined) return pre ?? undefined
    const items = Array.isArray(v) ? v : [v]
    const out: Array<FieldError> = []
    if (!items.every((i) => allowed.has(typeof i === "string" ? i.trim() : String(i)))) {
      out.push({ rule: "in", message: "Must be one of the allowed options." })
    }
    if (Array.isArray(v)) out.push(...lengthBounds(v.length, min, max, "items"))
    return out.length === 0 ? undefined : out
  }
}

/** The 30 fields of bench/fixture.json, by slug. */
export const fieldChecks: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["email", email(true)],
  ["first_name", text(true, 1, 80)],
  ["last_name", text(true, 1, 80)],
  ["phone", phone(true)],
  ["birth_date", date(true, "1900-01-01", "2009-12-31")],
  ["postcode", text(false, undefined, undefined, /^[1-9][0-9]{3} ?[a-z]{2}$/i)],
  ["city", text(false, undefined, 100)],
  ["country", choice(true, ["NL", "BE", "DE", "FR", "other"])],
  ["website", url(false)],
  ["pronouns", choice(false, ["she", "he", "they"])],
  ["shirt_size", choice(true, ["S", "M", "L", "XL", "XXL"])],
  ["days", choice(true, ["fri", "sat", "sun", "mon"], 1, 4)],
  ["shifts_wanted", numeric(true, 1, 10)],
  ["hours_per_shift", numeric(false, 2, 12)],
  ["available_from", date(false, "2027-08-01", "2027-08-31")],
  ["has_drivers_license", boolean(false)],
  ["can_lift", boolean(false)],
  ["roles", choice(true, ["bar", "stage", "security", "cleaning", "info", "parking"], 1, 3)],
  ["experience_years", numeric(false, 0, 60)],
  ["first_aid", boolean(false)],
  ["languages", choice(false, ["nl", "en", "de", "fr", "es"], undefined, 5)],
  ["diet", choice(false, ["none", "vegetarian", "vegan", "halal", "kosher", "other"])],
  ["allergies", text(false, undefined, 500)],
  ["emergency_name", text(true, 2, 100)],
  ["emergency_phone", phone(true)],
  ["motivation", text(false, 20, 2000)],
  ["referral_code", text(false, undefined, undefined, /^[A-Z]{3}-[0-9]{4}$/)],
  ["instagram", url(false)],
  ["agree_terms", boolean(true)],
  ["newsletter", boolean(false)]
])

/** Only the form's slugs, own keys only, into a null-prototype map (unknown keys are dropped). */
export const pickValues = (values: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(values)) if (fieldChecks.has(key)) out[key] = values[key]
  return out
}

/**
 * Strict mode checks every field of the form (absent ones fail `required`); relaxed mode only the
 * values given, without `required`. The unique email is offered as a claim once its rules pass.
 */
export const validate = (values: Readonly<Record<string, unknown>>, strict: boolean): ValidationResult => {
  let errors: FieldErrors | undefined
  const unique: Array<UniqueClaim> = []
  for (const [slug, check] of fieldChecks) {
    const present = Object.hasOwn(values, slug)
    if (!strict && !present) continue
    const value = values[slug]
    const fieldErrors = check(value, strict)
    if (fieldErrors !== undefined) (errors ??= Object.create(null) as FieldErrors)[slug] = fieldErrors
    else if (slug === "email" && typeof value === "string" && value.trim() !== "") {
      unique.push({ slug, normalized: value.trim().toLowerCase() })
    }
  }
  return { errors, unique }
}
