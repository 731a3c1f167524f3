/** Compiles a schema's fields into the strict and relaxed validators of CONTRACT §4. */
import type { FormField } from "../forms/FormField.js"
import type { FormSection } from "../forms/FormSchema.js"
import { compileFormLogic, type FormLogic } from "../logic/formLogic.js"
import { type SlotChoice, slotIdsOf } from "./SlotChoice.js"
import { checkShape, checkValue, EMPTY } from "./checkValue.js"
import { isEmptyValue } from "./emptiness.js"
import type { FieldError } from "./FieldErrors.js"
import type { CompiledRules, UniqueCandidate, ValidationResult, Validator } from "./Validator.js"
import { FieldPlan } from "./fieldPlan.js"
import { uniqueKeyOf } from "./uniqueKey.js"

const noCandidates: ReadonlyArray<UniqueCandidate> = Object.freeze([])
/** The answer when nothing failed and nothing is unique: shared, so a passing call allocates nothing. */
const passed: ValidationResult = Object.freeze({ errors: undefined, unique: noCandidates })
const noValues: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>)

interface Plans {
  readonly plans: ReadonlyArray<FieldPlan>
  /** slug → index in `plans` (the last field wins if a slug repeats; checked fields never repeat). */
  readonly index: ReadonlyMap<string, number>
  readonly requiredCount: number
}

type Mutable = Record<string, ReadonlyArray<FieldError>>

const newErrors = (): Mutable => Object.create(null) as Mutable

/** What a validation gathers, each list made on its first entry. */
interface Gathered {
  errors?: Mutable
  unique?: Array<UniqueCandidate>
  slots?: Array<SlotChoice>
}

/** The rules of one field whose checks apply: its errors, or its unique value or slot choice. */
const checkField = (gathered: Gathered, plan: FieldPlan, value: unknown, strict: boolean): void => {
  const found = checkValue(plan, value)
  if (found === undefined) {
    if (plan.unique) (gathered.unique ??= []).push({ slug: plan.slug, normalized: uniqueKeyOf(plan.uniqueKind, value) })
    else if (plan.slots) (gathered.slots ??= []).push(slotChoiceOf(plan, value))
  } else if (found !== EMPTY) {
    ;(gathered.errors ??= newErrors())[plan.slug] = found
  } else if (strict && plan.required) {
    ;(gathered.errors ??= newErrors())[plan.slug] = plan.requiredErrors
  }
}

/**
 * Null-prototype maps (what `Object.create(null)` builds, in dictionary mode; the use cases' maps)
 * are read slug by slug: a lookup there is a plain hash probe and nothing can be inherited.
 */
const bySlug = ({ plans }: Plans, values: Readonly<Record<string, unknown>>, strict: boolean): ValidationResult => {
  const gathered: Gathered = {}
  for (let i = 0; i < plans.length; i++) {
    const plan = plans[i] as FieldPlan
    checkField(gathered, plan, values[plan.slug], strict)
  }
  const { errors, unique, slots } = gathered
  if (slots !== undefined) return { errors, unique: unique ?? noCandidates, slots }
  return errors === undefined && unique === undefined ? passed : { errors, unique: unique ?? noCandidates }
}

/** `errors` with its keys in field order (the keys of a values map may come in any order). */
const inFieldOrder = (plans: ReadonlyArray<FieldPlan>, errors: Mutable): Mutable => {
  const ordered = newErrors()
  for (const plan of plans) {
    const found = errors[plan.slug]
    if (found !== undefined) ordered[plan.slug] = found
  }
  return ordered
}

/**
 * Other maps (JSON.parse builds plain objects of many shapes) are read by their own keys: looking up
 * an absent key on objects of ever-changing shapes is the slowest step there is, and own keys are
 * exactly the ones that count (nothing inherited; `__proto__` is no slug).
 */
const byOwnKeys = (
  { index, plans, requiredCount }: Plans,
  values: Readonly<Record<string, unknown>>,
  strict: boolean
): ValidationResult => {
  let errors: Mutable | undefined
  let unique: Array<UniqueCandidate> | undefined
  let inOrder = true
  let lastError = -1
  let lastUnique = -1
  let slots: Array<SlotChoice> | undefined
  let requiredSeen = 0
  const keys = Object.keys(values)
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string
    const i = index.get(key)
    if (i === undefined) continue
    const plan = plans[i] as FieldPlan
    const value = values[key]
    const found = checkValue(plan, value)
    if (found === EMPTY) continue
    if (plan.required) requiredSeen++
    if (found === undefined) {
      if (plan.unique) {
        ;(unique ??= []).push({ slug: plan.slug, normalized: uniqueKeyOf(plan.uniqueKind, value) })
        if (i < lastUnique) inOrder = false
        lastUnique = i
      } else if (plan.slots) {
        ;(slots ??= []).push(slotChoiceOf(plan, value))
      }
    } else {
      ;(errors ??= newErrors())[plan.slug] = found
      if (i < lastError) inOrder = false
      lastError = i
    }
  }
  if (strict && requiredSeen < requiredCount) {
    // some required field is absent or empty: find which
    for (let i = 0; i < plans.length; i++) {
      const plan = plans[i] as FieldPlan
      if (plan.required && isEmptyValue(Object.hasOwn(values, plan.slug) ? values[plan.slug] : undefined)) {
        ;(errors ??= newErrors())[plan.slug] = plan.requiredErrors
        if (i < lastError) inOrder = false
        lastError = i
      }
    }
  }
  if (errors === undefined && unique === undefined && slots === undefined) return passed
  if (!inOrder) {
    // rare: keys sent out of field order; answer in field order all the same
    if (errors !== undefined) errors = inFieldOrder(plans, errors)
    if (unique !== undefined) unique.sort((a, b) => (index.get(a.slug) ?? 0) - (index.get(b.slug) ?? 0))
  }
  return slots === undefined ? { errors, unique: unique ?? noCandidates } : { errors, unique: unique ?? noCandidates, slots }
}

/** A `time_slots` value that passed its shape rule, with the field's count bounds. */
const slotChoiceOf = (plan: FieldPlan, value: unknown): SlotChoice => ({
  slug: plan.slug,
  ids: slotIdsOf(value) ?? [],
  min: plan.min,
  max: plan.max
})

const makeValidator = (compiled: Plans, strict: boolean): Validator => (input) => {
  if (typeof input !== "object" || input === null) return bySlug(compiled, noValues, strict)
  return Object.getPrototypeOf(input) === null ? bySlug(compiled, input, strict) : byOwnKeys(compiled, input, strict)
}

/**
 * A form with conditions (CONTRACT §18): which fields are active is decided on `context` first; active fields
 * get every rule as without conditions, inactive ones only the shape rule (`invalid`) when relaxed and none when
 * strict, and give no unique value and no slot choice. The answer lists the inactive slugs.
 */
const withLogic = (
  { plans }: Plans,
  logic: FormLogic,
  plain: Validator,
  values: Readonly<Record<string, unknown>>,
  context: Readonly<Record<string, unknown>>,
  strict: boolean
): ValidationResult => {
  const input = typeof values === "object" && values !== null ? values : noValues
  const active = logic.activity(typeof context === "object" && context !== null ? context : noValues)
  if (!active.includes(false)) return plain(input)
  const nullPrototype = Object.getPrototypeOf(input) === null
  const gathered: Gathered = {}
  const inactive: Array<string> = []
  for (let i = 0; i < plans.length; i++) {
    const plan = plans[i] as FieldPlan
    const value = nullPrototype || Object.hasOwn(input, plan.slug) ? input[plan.slug] : undefined
    if (active[i] !== true) {
      inactive.push(plan.slug)
      const wrong = strict ? undefined : checkShape(plan, value)
      if (wrong !== undefined) (gathered.errors ??= newErrors())[plan.slug] = wrong
      continue
    }
    checkField(gathered, plan, value, strict)
  }
  const { errors, unique, slots } = gathered
  return { errors, unique: unique ?? noCandidates, ...(slots === undefined ? {} : { slots }), inactive }
}

/**
 * Both validators of a schema's fields. Fields are assumed checked (`checkFieldDefinitions`): a bound
 * that cannot be read is ignored and a pattern that does not compile fails every value; validating
 * never throws. Relaxed is strict without `required`: an absent or empty value fails nothing else, so
 * only the slugs present are effectively checked. Keys that are not slugs are never read.
 */
export const compileRules = (
  fields: ReadonlyArray<FormField>,
  sections: ReadonlyArray<FormSection> = []
): CompiledRules => {
  const plans = fields.map((field) => new FieldPlan(field))
  const index = new Map<string, number>()
  plans.forEach((plan, i) => index.set(plan.slug, i))
  // with a repeated slug only its last field is read by key; count what that path can see
  const requiredCount = plans.filter((plan, i) => plan.required && index.get(plan.slug) === i).length
  const compiled: Plans = { plans, index, requiredCount }
  const strict = makeValidator(compiled, true)
  const relaxed = makeValidator(compiled, false)
  const logic = compileFormLogic(fields, sections)
  if (logic === undefined) return { strict, relaxed, hasLogic: false }
  return {
    strict: (values, context = values) => withLogic(compiled, logic, strict, values, context, true),
    relaxed: (values, context = values) => withLogic(compiled, logic, relaxed, values, context, false),
    hasLogic: true
  }
}
