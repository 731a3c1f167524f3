/** Helpers shared by the rule tests: one-field forms, null-prototype and plain value maps. */
import { describe, expect, it } from "@effect/vitest"
import type { FieldOption, FormField, ValidationRules } from "../../forms/FormField.js"
import { compileRules } from "../../rules/compileRules.js"
import type { RuleName } from "../../rules/FieldErrors.js"

export interface FieldSpec {
  readonly type?: string
  readonly required?: boolean
  readonly unique?: boolean
  readonly options?: ReadonlyArray<string>
  readonly rules?: ValidationRules
}

export const field = (slug: string, spec: FieldSpec = {}): FormField => ({
  id: `f-${slug}`,
  section_id: null,
  slug,
  label: slug,
  type: spec.type ?? "text",
  is_required: spec.required ?? false,
  options: spec.options === undefined ? null : spec.options.map((value): FieldOption => ({ value, label: value, tags: [] })),
  validation_rules: spec.rules ?? null,
  is_unique: spec.unique ?? false,
  position: 1,
  maps_to: null
})

export const values = (entries: Record<string, unknown>): Record<string, unknown> =>
  Object.assign(Object.create(null) as Record<string, unknown>, entries)

/** The same entries in a plain object, as JSON.parse builds it (own keys, `__proto__` included). */
export const plain = (map: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(map)) {
    Object.defineProperty(out, key, { value: map[key], enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** The rule names one value of a one-field form fails, strictly; both map kinds must agree. */
export const rulesOf = (spec: FieldSpec, value: unknown): ReadonlyArray<RuleName> => {
  const { strict } = compileRules([field("x", spec)])
  const map = values(value === undefined ? {} : { x: value })
  const fromNullPrototype = strict(map).errors?.["x"]?.map((e) => e.rule) ?? []
  const fromPlain = strict(plain(map)).errors?.["x"]?.map((e) => e.rule) ?? []
  expect(fromPlain).toEqual(fromNullPrototype)
  return fromNullPrototype
}

export type Case = readonly [unknown, ReadonlyArray<RuleName>]

export const cases = (name: string, spec: FieldSpec, rows: ReadonlyArray<Case>) =>
  describe(name, () => {
    it.each(rows.map(([value, rules]) => [JSON.stringify(value) ?? "absent", value, rules] as const))(
      "%s → %j",
      (_, value, rules) => expect(rulesOf(spec, value)).toEqual(rules)
    )
  })
