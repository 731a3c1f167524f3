/** Renders a §3 form definition into a `<form>`: sections as fieldsets, then the fields of no section. */
import type { FieldErrors } from "./api.js"
import { h } from "./dom.js"
import { type Field, type FieldControl, fieldControl } from "./fields.js"
import type { Slot } from "./slots.js"

export interface FormDefinition {
  readonly name: string
  readonly event: { readonly name: string } | null
  readonly accepts_submissions: boolean
  readonly sections: ReadonlyArray<{ readonly id: string; readonly name: string; readonly fields: ReadonlyArray<Field> }>
  readonly fields: ReadonlyArray<Field>
}

export interface FormView {
  readonly form: HTMLFormElement
  readonly controls: ReadonlyArray<FieldControl>
  readonly values: () => Record<string, unknown>
  readonly fill: (values: Readonly<Record<string, unknown>>) => void
  /** Shows every field's messages (clearing the others); returns the control of the first error, if any. */
  readonly showErrors: (errors: FieldErrors) => FieldControl | undefined
  /** Shows the places of a fresher time-slot list in every time-slot field. */
  readonly refreshSlots: (slots: ReadonlyArray<Slot>) => void
}

export const buildFormView = (
  groups: ReadonlyArray<{ readonly legend: string | null; readonly fields: ReadonlyArray<Field> }>,
  prefix: string,
  submitLabel: string,
  slots: ReadonlyArray<Slot> = []
): FormView => {
  const controls: Array<FieldControl> = []
  const form = h("form", { novalidate: true })
  groups.forEach((group, i) => {
    if (group.fields.length === 0) return
    const made = group.fields.map((field) => fieldControl(field, `${prefix}${i}`, slots))
    controls.push(...made)
    form.append(
      group.legend === null
        ? h("div", { class: "loose" }, ...made.map((c) => c.element))
        : h("fieldset", {}, h("legend", {}, group.legend), ...made.map((c) => c.element))
    )
  })
  if (controls.some((c) => c.element.querySelector(".req") !== null)) {
    form.prepend(h("p", { class: "sub" }, "Fields marked * are required."))
  }
  form.append(h("button", { type: "submit" }, submitLabel))
  const values = () => {
    const out: Record<string, unknown> = Object.create(null)
    for (const control of controls) out[control.slug] = control.read()
    return out
  }
  const fill = (values: Readonly<Record<string, unknown>>) => {
    for (const control of controls) {
      if (Object.prototype.hasOwnProperty.call(values, control.slug)) control.write(values[control.slug])
    }
  }
  const showErrors = (errors: FieldErrors) => {
    let first: FieldControl | undefined
    for (const control of controls) {
      const list = Object.prototype.hasOwnProperty.call(errors, control.slug) ? errors[control.slug] ?? [] : []
      control.setErrors(list)
      if (list.length > 0) first ??= control
    }
    return first
  }
  const refreshSlots = (slots: ReadonlyArray<Slot>) => {
    for (const control of controls) control.refreshSlots?.(slots)
  }
  return { form, controls, values, fill, showErrors, refreshSlots }
}

/** The groups of a public form: its sections in order, then the fields that belong to none. */
export const groupsOf = (definition: FormDefinition) => [
  ...definition.sections.map((s) => ({ legend: s.name, fields: s.fields })),
  { legend: null, fields: definition.fields }
]
