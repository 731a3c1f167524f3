/** One field's rules on one value (everything but `required` and `unique`), on a precompiled plan. */
import { dateKey } from "./dates.js"
import { fileIdsOf } from "./fileRules.js"
import { slotIdsOf } from "./SlotChoice.js"
import { isEmptyValue, trimString } from "./emptiness.js"
import type { FieldError } from "./FieldErrors.js"
import {
  B_DATE,
  B_LENGTH,
  B_NUMERIC,
  type FieldPlan,
  IN,
  ITEMS,
  MAX,
  MIN,
  REGEX,
  T_BOOLEAN,
  T_DATE,
  T_EMAIL,
  T_NONE,
  T_NUMERIC,
  T_PHONE,
  T_URL
} from "./fieldPlan.js"
import { codePointLength, isBooleanString, isEmail, isNumericString, isPhone, isUrl } from "./types.js"

/** Returned for an empty value: only `required` applies to it. Compared by identity. */
export const EMPTY: ReadonlyArray<FieldError> = Object.freeze([])

const stringPasses = (code: number, s: string): boolean => {
  switch (code) {
    case T_EMAIL:
      return isEmail(s)
    case T_URL:
      return isUrl(s)
    case T_NUMERIC:
      return isNumericString(s)
    case T_DATE:
      return dateKey(s) >= 0
    case T_BOOLEAN:
      return isBooleanString(s)
    case T_PHONE:
      return isPhone(s)
    default:
      return true
  }
}

const numberPasses = (code: number, n: number): boolean =>
  code === T_NONE || code === T_NUMERIC || (code === T_BOOLEAN && (n === 0 || n === 1))

/** Bits MIN/MAX for `x` against the plan's bounds. */
const boundBits = (plan: FieldPlan, x: number): number => (x < plan.min ? MIN : 0) | (x > plan.max ? MAX : 0)

/** A string's length bits; code points are counted only when the UTF-16 length cannot decide. */
const lengthBits = (plan: FieldPlan, s: string): number => {
  const units = s.length
  // code points lie between ceil(units / 2) and units
  if (units <= plan.max && (units + 1) >> 1 >= plan.min) return 0
  return boundBits(plan, codePointLength(s))
}

const checkString = (plan: FieldPlan, s: string): ReadonlyArray<FieldError> | undefined => {
  const code = plan.typeCode
  if (code !== T_NONE && !stringPasses(code, s)) return plan.typeErrors
  let mask = 0
  if (plan.options !== undefined && !plan.options.has(s)) mask = IN
  if (plan.hasBounds) {
    const kind = plan.boundKind
    mask |= kind === B_LENGTH
      ? lengthBits(plan, s)
      : boundBits(plan, kind === B_NUMERIC ? Number(s) : dateKey(s))
  }
  if (plan.pattern !== undefined && !plan.pattern.test(s)) mask |= REGEX
  return mask === 0 ? undefined : plan.errors(mask)
}

const checkNumber = (plan: FieldPlan, n: number): ReadonlyArray<FieldError> | undefined => {
  if (!numberPasses(plan.typeCode, n)) return plan.typeErrors
  let mask = 0
  if (plan.options !== undefined && !plan.options.has(String(n))) mask = IN
  // numbers are bounded on numeric fields only
  if (plan.hasBounds && plan.boundKind === B_NUMERIC) mask |= boundBits(plan, n)
  if (plan.pattern !== undefined && !plan.pattern.test(String(n))) mask |= REGEX
  return mask === 0 ? undefined : plan.errors(mask)
}

const checkBoolean = (plan: FieldPlan, b: boolean): ReadonlyArray<FieldError> | undefined => {
  const code = plan.typeCode
  if (code !== T_NONE && code !== T_BOOLEAN) return plan.typeErrors
  let mask = 0
  const text = b ? "true" : "false"
  if (plan.options !== undefined && !plan.options.has(text)) mask = IN
  if (plan.pattern !== undefined && !plan.pattern.test(text)) mask |= REGEX
  return mask === 0 ? undefined : plan.errors(mask)
}

/** The string an array item is compared as: trimmed, or a number as `String(n)`. */
const itemText = (item: string | number): string => typeof item === "string" ? trimString(item) : String(item)

const checkArray = (plan: FieldPlan, items: ReadonlyArray<unknown>): ReadonlyArray<FieldError> | undefined => {
  const options = plan.options
  if (options === undefined) return plan.invalid
  const n = items.length
  for (let i = 0; i < n; i++) {
    const item = items[i]
    if (typeof item !== "string" && (typeof item !== "number" || !Number.isFinite(item))) return plan.invalid
  }
  const code = plan.typeCode
  if (code !== T_NONE) {
    for (let i = 0; i < n; i++) {
      const item = items[i] as string | number
      if (typeof item === "string" ? !stringPasses(code, trimString(item)) : !numberPasses(code, item)) {
        return plan.typeErrors
      }
    }
  }
  let mask = ITEMS
  const perItemDate = plan.hasBounds && plan.boundKind === B_DATE
  if (plan.hasBounds && !perItemDate) mask |= boundBits(plan, n)
  for (let i = 0; i < n; i++) {
    const text = itemText(items[i] as string | number)
    if (!options.has(text)) mask |= IN
    if (perItemDate) mask |= boundBits(plan, dateKey(text))
    if (plan.pattern !== undefined && (mask & REGEX) === 0 && !plan.pattern.test(text)) mask |= REGEX
  }
  return mask === ITEMS ? undefined : plan.errors(mask)
}

/** A `time_slots` value (CONTRACT §15): empty, or a string or array of strings naming each id once. */
const checkSlotsShape = (plan: FieldPlan, value: unknown): ReadonlyArray<FieldError> | undefined => {
  if (isEmptyValue(value)) return EMPTY
  return slotIdsOf(value) === undefined ? plan.invalid : undefined
}

/**
 * The errors of a value, `undefined` when every rule passed, or `EMPTY` when the value is empty.
 * Allowed shapes: string, finite number, boolean, null/absent, or (fields with options) an array of
 * strings and finite numbers; anything else is `invalid`.
 */
export const checkValue = (plan: FieldPlan, value: unknown): ReadonlyArray<FieldError> | undefined => {
  if (plan.slots) return checkSlotsShape(plan, value)
  if (plan.files) return isEmptyValue(value) ? EMPTY : fileIdsOf(value) === undefined ? plan.invalid : undefined
  switch (typeof value) {
    case "string": {
      const s = trimString(value)
      return s.length === 0 ? EMPTY : checkString(plan, s)
    }
    case "number":
      return Number.isFinite(value) ? checkNumber(plan, value) : plan.invalid
    case "boolean":
      return checkBoolean(plan, value)
    case "undefined":
      return EMPTY
    case "object":
      if (value === null) return EMPTY
      if (Array.isArray(value)) return value.length === 0 ? EMPTY : checkArray(plan, value)
      return plan.invalid
    default:
      return plan.invalid
  }
}

/**
 * The shape rule alone (`invalid`), what an inactive field's value gets on a save (CONTRACT §18): undefined when
 * the value is one its field may hold, whatever the other rules would say of it.
 */
export const checkShape = (plan: FieldPlan, value: unknown): ReadonlyArray<FieldError> | undefined => {
  if (plan.slots) return isEmptyValue(value) || slotIdsOf(value) !== undefined ? undefined : plan.invalid
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return undefined
    case "number":
      return Number.isFinite(value) ? undefined : plan.invalid
    case "object": {
      if (value === null) return undefined
      if (!Array.isArray(value)) return plan.invalid
      if (value.length === 0) return undefined
      if (plan.options === undefined) return plan.invalid
      const shaped = value.every((item: unknown) => typeof item === "string" || (typeof item === "number" && Number.isFinite(item)))
      return shaped ? undefined : plan.invalid
    }
    default:
      return plan.invalid
  }
}
