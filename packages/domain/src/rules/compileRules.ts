/** Compiles a schema's fields into the strict and relaxed validators of CONTRACT §4. */
import type { FormField } from "../forms/FormField.js"
import { checkValue, EMPTY, uniqueValueOf } from "./checkValue.js"
import type { CompiledRules, FieldError, UniqueCandidate, ValidationResult, Validator } from "./FieldErrors.js"
import { FieldPlan } from "./fieldPlan.js"

const noCandidates: ReadonlyArray<UniqueCandidate> = Object.freeze([])
/** The answer when nothing failed and nothing is unique: shared, so a passing call allocates nothing. */
const passed: ValidationResult = Object.freeze({ errors: undefined, unique: noCandidates })
const objectPrototype: object = Object.prototype
const noValues: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>)

/**
 * A field's value: only an own property counts. Values maps are null-prototype or plain objects
 * (JSON.parse); for those a property lookup finds an own value unless the prototype holds that
 * very value (`constructor` is a valid slug), so `Object.hasOwn` runs only then, or for other prototypes.
 */
const ownValue = (values: Readonly<Record<string, unknown>>, proto: object | null, slug: string): unknown => {
  const value = values[slug]
  if (value === undefined || proto === null) return value
  if (proto === objectPrototype && (objectPrototype as Record<string, unknown>)[slug] !== value) return value
  return Object.hasOwn(values, slug) ? value : undefined
}

const makeValidator = (plans: ReadonlyArray<FieldPlan>, strict: boolean): Validator => {
  const count = plans.length
  return (input) => {
    const values = typeof input === "object" && input !== null ? input : noValues
    const proto: object | null = Object.getPrototypeOf(values)
    let errors: Record<string, ReadonlyArray<FieldError>> | undefined
    let unique: Array<UniqueCandidate> | undefined
    for (let i = 0; i < count; i++) {
      const plan = plans[i] as FieldPlan
      const value = ownValue(values, proto, plan.slug)
      const found = checkValue(plan, value)
      if (found === undefined) {
        if (plan.unique) (unique ??= []).push({ slug: plan.slug, normalized: uniqueValueOf(plan, value) })
      } else if (found !== EMPTY) {
        ;(errors ??= Object.create(null) as Record<string, ReadonlyArray<FieldError>>)[plan.slug] = found
      } else if (strict && plan.required) {
        ;(errors ??= Object.create(null) as Record<string, ReadonlyArray<FieldError>>)[plan.slug] = plan.requiredErrors
      }
    }
    return errors === undefined && unique === undefined ? passed : { errors, unique: unique ?? noCandidates }
  }
}

/**
 * Both validators of a schema's fields. Fields are assumed checked (`checkFieldDefinitions`): a bound
 * that cannot be read is ignored and a pattern that does not compile fails every value; validating
 * never throws. Relaxed is strict without `required`: an absent or empty value fails nothing else, so
 * only the slugs present are effectively checked. Keys that are not slugs are never read.
 */
export const compileRules = (fields: ReadonlyArray<FormField>): CompiledRules => {
  const plans = fields.map((field) => new FieldPlan(field))
  return { strict: makeValidator(plans, true), relaxed: makeValidator(plans, false) }
}
