/**
 * Member-by-member checks of organiser bodies (CONTRACT §12), shared by the catalog, artists and engagements:
 * 422 fields keyed by the member's dotted path; missing → `required`, wrong type, malformed value or unknown
 * member → `invalid`, too long → `max`.
 */
import { Result } from "effect"
import { type Body, codePoints, FieldProblems, requiredMembers } from "../../rules/bodyChecks.js"
import type { FieldErrors } from "../../rules/FieldErrors.js"

/** Longest name, in Unicode code points. */
export const maxNameLength = 200

export const memberMessages = {
  required: "This member is required.",
  invalid: "This member has the wrong type or form.",
  unknown: "This member is not known.",
  max: `At most ${maxNameLength} characters.`,
  position: "An integer is expected.",
  name: "A non-empty string is expected."
} as const

/** One member's check: its value, or undefined with its problem added at `path`. */
export type Check<A> = (value: unknown, path: string, problems: FieldProblems) => A | undefined

/** The checks of a body's members, by member name. */
export type Spec = Readonly<Record<string, Check<unknown>>>

/** A name: a string, not empty after trimming, at most 200 code points (stored as sent). */
// PostgreSQL text cannot hold U+0000: such a string could never be stored, so it is malformed.
export const nameCheck: Check<string> = (value, path, c) => {
  if (typeof value !== "string" || value.includes("\u0000")) return void c.add(path, "invalid", memberMessages.name)
  if (value.trim() === "") return void c.add(path, "required", memberMessages.required)
  if (codePoints(value) > maxNameLength) return void c.add(path, "max", memberMessages.max)
  return value
}

const maxPosition = 1_000_000_000
export const positionCheck: Check<number> = (value, path, c) =>
  typeof value === "number" && Number.isInteger(value) && Math.abs(value) <= maxPosition
    ? value
    : void c.add(path, "invalid", memberMessages.position)

/**
 * Checks every member of `body` against `spec`: unknown members are `invalid`; with `required`, the
 * listed members must be present. Returns the checked members present in the body.
 */
export const checkBody = (
  body: Body,
  spec: Spec,
  required: ReadonlyArray<string>
): Result.Result<Record<string, unknown>, FieldErrors> => {
  const c = new FieldProblems(body)
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  for (const key of Object.keys(body)) {
    const check = Object.prototype.hasOwnProperty.call(spec, key) ? spec[key] : undefined
    if (check === undefined) {
      c.add(key, "invalid", memberMessages.unknown)
      continue
    }
    const checked = check(body[key], key, c)
    if (checked !== undefined) out[key] = checked
  }
  requiredMembers(c, body, required)
  return c.result(out)
}

/** An RFC 3339 date-time with a zone (Z or an offset). */
export const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

/** The instants a store can hold: years 0001 to 9999 in UTC (PostgreSQL has no year 0, ISO strings no year 10000). */
const firstInstant = Date.parse("0001-01-01T00:00:00.000Z")
const lastInstant = Date.parse("9999-12-31T23:59:59.999Z")

/** Whether an instant in epoch ms lies in years 0001–9999 UTC, where every store can hold it. */
export const isStorableInstant = (ms: number): boolean => Number.isFinite(ms) && ms >= firstInstant && ms <= lastInstant

/** An instant (an RFC 3339 date-time with a zone, in years 0001–9999 UTC) as epoch ms, or null. */
export const instantOrNullCheck: Check<number | null> = (value, path, c) => {
  if (value === null) return null
  const ms = typeof value === "string" && timestampPattern.test(value) ? Date.parse(value) : NaN
  return isStorableInstant(ms)
    ? ms
    : void c.add(path, "invalid", "An RFC 3339 date-time with a zone (years 0001 to 9999), or null, is expected.")
}

/** true, false or null. */
export const booleanOrNullCheck: Check<boolean | null> = (value, path, c) =>
  value === null || typeof value === "boolean" ? value : void c.add(path, "invalid", "true, false or null is expected.")

/** A checked member that is known to be there, as a string. */
export const str = (m: Record<string, unknown>, key: string): string => String(m[key])
