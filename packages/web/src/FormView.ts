/** Renders a §3 form definition into a `<form>`: sections as fieldsets, then the fields of no section. */
import { compileFormLogic } from "@forms/domain/logic"
import type { FieldErrors } from "./api.js"
import { h } from "./dom.js"
import { type Field, type FieldControl, fieldControl } from "./fields.js"
import type { Slot } from "./slots.js"

export interface FormDefinition {
  readonly name: string
  /** The language the server chose for the form's texts, and the form's languages (CONTRACT §19). */
  readonly language?: string
  readonly languages?: ReadonlyArray<string>
  readonly event: { readonly name: string } | null
  readonly accepts_submissions: boolean
  readonly sections: ReadonlyArray<{
    readonly id: string
    readonly name: string
    readonly visible_if?: unknown
    readonly fields: ReadonlyArray<Field>
  }>
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

/** A part of the form: a section (its id and condition) or the fields of none (`legend` null). */
export interface FieldGroup {
  readonly legend: string | null
  readonly id?: string
  readonly visible_if?: unknown
  readonly fields: ReadonlyArray<Field>
}

export const buildFormView = (
  groups: ReadonlyArray<FieldGroup>,
  prefix: string,
  submitLabel: string,
  slots: ReadonlyArray<Slot> = []
): FormView => {
  const controls: Array<FieldControl> = []
  const shown: Array<{ readonly element: HTMLElement; readonly controls: ReadonlyArray<FieldControl> }> = []
  const form = h("form", { novalidate: true })
  groups.forEach((group, i) => {
    if (group.fields.length === 0) return
    const made = group.fields.map((field) => fieldControl(field, `${prefix}${i}`, slots))
    controls.push(...made)
    const element = group.legend === null
      ? h("div", { class: "loose" }, ...made.map((c) => c.element))
      : h("fieldset", {}, h("legend", {}, group.legend), ...made.map((c) => c.element))
    shown.push({ element, controls: made })
    form.append(element)
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
  // Conditions (CONTRACT §18), evaluated as the server evaluates them: an inactive field is `hidden` (out of view,
  // of the tab order and of the accessibility tree); a part with no field shown is hidden too.
  const fields = groups.flatMap((group) =>
    group.fields.map((field) => ({ ...field, section_id: group.legend === null ? null : group.id ?? null })))
  const sections = groups.flatMap((group) =>
    group.legend === null || group.id === undefined ? [] : [{ id: group.id, visible_if: group.visible_if }])
  const logic = compileFormLogic(fields, sections)
  const neverShown = new Set(fields.flatMap((field) => (field.type === "hidden" ? [field.slug] : [])))
  const applyLogic = () => {
    const active = logic?.activity(values())
    controls.forEach((control, i) => {
      control.element.hidden = neverShown.has(control.slug) || active?.[i] === false
    })
    for (const part of shown) part.element.hidden = part.controls.every((c) => c.element.hidden)
  }
  form.addEventListener("input", applyLogic)
  form.addEventListener("change", applyLogic)
  const fill = (values: Readonly<Record<string, unknown>>) => {
    for (const control of controls) {
      if (Object.prototype.hasOwnProperty.call(values, control.slug)) control.write(values[control.slug])
    }
    applyLogic()
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
  applyLogic()
  return { form, controls, values, fill, showErrors, refreshSlots }
}

/** The groups of a public form: its sections in order, then the fields that belong to none. */
export const groupsOf = (definition: FormDefinition): ReadonlyArray<FieldGroup> => [
  ...definition.sections.map((s) => ({ legend: s.name, id: s.id, visible_if: s.visible_if, fields: s.fields })),
  { legend: null, fields: definition.fields }
]
