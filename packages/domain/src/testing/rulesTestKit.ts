/** Helpers shared by the rule tests: one-field forms, null-prototype and plain value maps. */
import type { FieldOption, FormField, ValidationRules } from "../forms/FormField.js"

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
