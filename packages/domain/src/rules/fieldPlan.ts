/** Everything a field's rules need, worked out once when a schema is compiled. */
import type { FormField } from "../forms/FormField.js"
import { fileFieldType, filesInvalidMessage } from "./fileRules.js"
import { slotsInvalidMessage } from "./SlotChoice.js"
import { boundKindOf, maxMessage, minMessage, readBound } from "./bounds.js"
import type { FieldError } from "./FieldErrors.js"
import {
  errorList,
  inMessage,
  invalidMessage,
  invalidWithOptionsMessage,
  regexMessage,
  requiredMessage
} from "./messages.js"
import { type CompiledPattern, compilePattern } from "./regex.js"
import { type TypeRule, typeMessages, typeRuleOf } from "./types.js"
import { U_EMAIL, U_NUMERIC, U_PHONE, U_TEXT } from "./uniqueKey.js"

// Bits of the rules that are all reported, in rule order.
export const IN = 1
export const MIN = 2
export const MAX = 4
export const REGEX = 8
/** Offset of the error lists of arrays (their min/max speak of item counts). */
export const ITEMS = 16

// Codes of the type rule, so the hot path switches on a small integer.
export const T_NONE = 0
export const T_EMAIL = 1
export const T_URL = 2
export const T_NUMERIC = 3
export const T_DATE = 4
export const T_BOOLEAN = 5
export const T_PHONE = 6

const typeCodes: Readonly<Record<TypeRule, number>> = {
  email: T_EMAIL,
  url: T_URL,
  numeric: T_NUMERIC,
  date: T_DATE,
  boolean: T_BOOLEAN,
  phone: T_PHONE
}

// Bounds are compared as numbers; kinds as codes.
export const B_NUMERIC = 0
export const B_DATE = 1
export const B_LENGTH = 2

/** An uncompilable pattern (only on unchecked fields) fails closed: every value fails `regex`. */
const neverMatches: CompiledPattern = { test: () => false }

const compileOrFailClosed = (pattern: string): CompiledPattern => {
  try {
    return compilePattern(pattern)
  } catch {
    return neverMatches
  }
}

/**
 * The slug as a property key: V8 keeps one internalized copy of each key, so a lookup with it skips
 * the string-table probe a slug read from a database row or JSON value would cost on every request.
 */
const internalized = (slug: string): string => Object.keys({ [slug]: 0 })[0] ?? slug

/** One class, so every plan has the same shape and the checks stay monomorphic. */
export class FieldPlan {
  readonly slug: string
  readonly required: boolean
  readonly typeCode: number
  readonly options: ReadonlySet<string> | undefined
  readonly boundKind: number
  readonly hasBounds: boolean
  /** -Infinity when there is no `min`. */
  readonly min: number
  /** +Infinity when there is no `max`. */
  readonly max: number
  readonly pattern: CompiledPattern | undefined
  readonly unique: boolean
  /** A `time_slots` field (CONTRACT §15): its shape is checked here, its other rules after the slots are read. */
  readonly slots: boolean
  /** A `file` field (uploads): its shape is checked here, `in` and the counts by the files feature. */
  readonly files: boolean
  /** How unique values compare (`U_TEXT`, `U_EMAIL`, `U_NUMERIC`, `U_PHONE` of uniqueKey.ts). */
  readonly uniqueKind: number
  readonly invalid: ReadonlyArray<FieldError>
  readonly requiredErrors: ReadonlyArray<FieldError>
  readonly typeErrors: ReadonlyArray<FieldError>
  /** Error lists by mask (`IN|MIN|MAX|REGEX`, plus `ITEMS` for arrays), built on first use. */
  private readonly lists: Array<ReadonlyArray<FieldError> | undefined>
  private readonly minErrors: readonly [FieldError, FieldError] | undefined
  private readonly maxErrors: readonly [FieldError, FieldError] | undefined
  private readonly regexMessage: string

  constructor(field: FormField) {
    const rule = typeRuleOf(field.type)
    const kind = boundKindOf(rule)
    const rules = field.validation_rules
    const min = rules?.min === undefined ? undefined : readBound(kind, rules.min)
    const max = rules?.max === undefined ? undefined : readBound(kind, rules.max)
    const options = field.options
    this.slug = internalized(field.slug)
    this.required = field.is_required
    this.typeCode = rule === undefined ? T_NONE : typeCodes[rule]
    this.options = options !== null && options.length > 0 ? new Set(options.map((o) => o.value)) : undefined
    this.boundKind = kind === "numeric" ? B_NUMERIC : kind === "date" ? B_DATE : B_LENGTH
    this.hasBounds = min !== undefined || max !== undefined
    this.min = min ?? -Infinity
    this.max = max ?? Infinity
    this.pattern = typeof rules?.regex === "string" ? compileOrFailClosed(rules.regex) : undefined
    // The form's own words for a failed pattern, when it gives some (CONTRACT §4 `regex_message`).
    const own = rules?.regex_message
    this.regexMessage = typeof own === "string" && own.trim() !== "" ? own : regexMessage
    this.slots = field.type === "time_slots"
    this.files = field.type === fileFieldType
    this.unique = field.is_unique && !this.slots && !this.files
    this.uniqueKind = rule === "email" ? U_EMAIL : rule === "numeric" ? U_NUMERIC : rule === "phone" ? U_PHONE : U_TEXT
    this.invalid = errorList({
      rule: "invalid",
      message: this.slots ? slotsInvalidMessage : this.files ? filesInvalidMessage : this.options === undefined ? invalidMessage : invalidWithOptionsMessage
    })
    this.requiredErrors = errorList({ rule: "required", message: requiredMessage })
    this.typeErrors = rule === undefined ? [] : errorList({ rule, message: typeMessages[rule] })
    this.lists = new Array<ReadonlyArray<FieldError> | undefined>(32).fill(undefined)
    this.minErrors = min === undefined ? undefined : [
      { rule: "min", message: minMessage(kind, min, false) },
      { rule: "min", message: minMessage(kind, min, true) }
    ]
    this.maxErrors = max === undefined ? undefined : [
      { rule: "max", message: maxMessage(kind, max, false) },
      { rule: "max", message: maxMessage(kind, max, true) }
    ]
  }

  /** The frozen, shared list of the errors in `mask`, in rule order. */
  errors(mask: number): ReadonlyArray<FieldError> {
    const hit = this.lists[mask]
    if (hit !== undefined) return hit
    const items = (mask & ITEMS) === 0 ? 0 : 1
    const list: Array<FieldError> = []
    if ((mask & IN) !== 0) list.push({ rule: "in", message: inMessage })
    if ((mask & MIN) !== 0 && this.minErrors !== undefined) list.push(this.minErrors[items])
    if ((mask & MAX) !== 0 && this.maxErrors !== undefined) list.push(this.maxErrors[items])
    if ((mask & REGEX) !== 0) list.push({ rule: "regex", message: this.regexMessage })
    const frozen = Object.freeze(list.map((e) => Object.freeze(e)))
    this.lists[mask] = frozen
    return frozen
  }
}
