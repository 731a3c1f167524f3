/**
 * One control per field type (CONTRACT §4, §14): the native control, its bound label, the required mark,
 * reading and writing its value, and the server's messages beside it.
 */
import type { FieldError } from "./api.js"
import { h, setText } from "./dom.js"
import { type Slot, slotPicker } from "./slots.js"

export interface Field {
  readonly slug: string
  readonly label: string
  readonly type: string
  readonly is_required: boolean
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }> | null
  readonly validation_rules: { readonly min?: number | string; readonly max?: number | string } | null
  /** A JSON Logic condition (CONTRACT §18): evaluated by `@forms/domain/logic`, as the server does. */
  readonly visible_if?: unknown
  /** Plain text shown under the label, referenced by the control's `aria-describedby`. */
  readonly help?: string | null
}

export interface FieldControl {
  readonly slug: string
  readonly element: HTMLElement
  /** The value as the API takes it; `undefined` when the visitor never touched a group with nothing chosen. */
  readonly read: () => unknown
  readonly write: (value: unknown) => void
  /** Shows the messages (or clears them with an empty list); marks the controls invalid. */
  readonly setErrors: (errors: ReadonlyArray<FieldError>) => void
  /** The control that takes focus for this field's first error. */
  readonly focusTarget: () => HTMLElement
  /** Time-slot fields: shows the places of a fresher slot list. */
  readonly refreshSlots?: (slots: ReadonlyArray<Slot>) => void
}

const inputTypes: Readonly<Record<string, string>> = {
  email: "email",
  url: "url",
  phone: "tel",
  tel: "tel",
  date: "date",
  numeric: "number",
  number: "number"
}
const multiTypes = new Set(["multi_select", "multiselect", "checkboxes", "multi"])
const booleanTypes = new Set(["boolean", "checkbox"])

const asText = (value: unknown): string =>
  value === null || value === undefined ? "" : typeof value === "string" ? value : String(value)

const requiredMark = (required: boolean) =>
  required ? h("span", { class: "req", "aria-hidden": "true" }, " *") : null

/**
 * Builds the control of `field`; ids are prefixed with `prefix` (unique within one shadow root). `slots`: the
 * form's time slots, for `time_slots` fields.
 */
export const fieldControl = (field: Field, prefix: string, slots: ReadonlyArray<Slot> = []): FieldControl => {
  const id = `${prefix}-${field.slug}`
  const errorId = `${id}-error`
  const helpId = `${id}-help`
  const error = h("p", { class: "error", id: errorId, hidden: true })
  const help = typeof field.help === "string" && field.help !== "" ? h("p", { class: "help", id: helpId }, field.help) : null
  const options = field.options ?? []
  const required = field.is_required
  const wrap = (...children: ReadonlyArray<Node | null>) =>
    h("div", { class: "field", "data-slug": field.slug }, ...children, error)
  /** Groups (choices, time slots): the help under the legend, describing the fieldset. */
  let grouped = false

  let inputs: ReadonlyArray<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>
  let element: HTMLElement
  let read: () => unknown
  let write: (value: unknown) => void
  let refreshSlots: ((slots: ReadonlyArray<Slot>) => void) | undefined

  if (field.type === "hidden") {
    // Never shown (CONTRACT §18): it carries a value (a prefill, a saved one) and sends it back as it is.
    let kept: unknown = null
    inputs = []
    element = h("div", { class: "field", "data-slug": field.slug, hidden: true })
    read = () => kept
    write = (value) => {
      kept = value
    }
  } else if (field.type === "time_slots") {
    const picker = slotPicker(id, [field.label, requiredMark(required)], slots)
    inputs = picker.inputs
    element = wrap(picker.group)
    if (help !== null) {
      picker.group.querySelector("legend")?.after(help)
      picker.group.setAttribute("aria-describedby", helpId)
      grouped = true
    }
    read = picker.read
    write = picker.write
    refreshSlots = picker.refresh
  } else if (options.length > 0 && (multiTypes.has(field.type) || field.type === "radio")) {
    const multi = field.type !== "radio"
    const boxes = options.map((option, i) =>
      h("input", { type: multi ? "checkbox" : "radio", id: `${id}-${i}`, name: id, value: option.value })
    )
    inputs = boxes
    element = wrap(h(
      "fieldset",
      {
        class: "group",
        // aria-required belongs to a radiogroup, not to a plain group (axe: aria-allowed-attr)
        role: multi ? undefined : "radiogroup",
        "aria-required": multi ? undefined : String(required),
        "aria-describedby": help === null ? undefined : helpId
      },
      h("legend", {}, field.label, requiredMark(required)),
      help,
      ...options.map((option, i) => h("div", { class: "choice" }, boxes[i] ?? null, h("label", { for: `${id}-${i}` }, option.label)))
    ))
    grouped = true
    read = () => {
      const chosen = boxes.filter((b) => b.checked).map((b) => b.value)
      return multi ? chosen : chosen[0] ?? null
    }
    write = (value) => {
      const wanted = new Set((Array.isArray(value) ? value : [value]).map(asText))
      for (const box of boxes) box.checked = wanted.has(box.value)
    }
  } else if (options.length > 0) {
    const select = h(
      "select",
      { id, name: field.slug, required },
      h("option", { value: "" }, "Choose…"),
      ...options.map((option) => h("option", { value: option.value }, option.label))
    )
    inputs = [select]
    element = wrap(h("label", { for: id }, field.label, requiredMark(required)), help, select)
    read = () => select.value === "" ? null : select.value
    write = (value) => {
      select.value = asText(Array.isArray(value) ? value[0] : value)
    }
  } else if (booleanTypes.has(field.type)) {
    const box = h("input", { type: "checkbox", id, name: field.slug, required })
    inputs = [box]
    element = wrap(h("div", { class: "choice" }, box, h("label", { for: id }, field.label, requiredMark(required))), help)
    read = () => box.checked
    write = (value) => {
      box.checked = value === true || value === 1 || value === "1" || value === "true"
    }
  } else {
    const textarea = field.type === "textarea"
    const control = textarea
      ? h("textarea", { id, name: field.slug, rows: "4", required })
      : h("input", {
        id,
        name: field.slug,
        type: inputTypes[field.type] ?? "text",
        required,
        step: inputTypes[field.type] === "number" ? "any" : undefined,
        autocomplete: field.type === "email" ? "email" : field.type === "phone" ? "tel" : undefined
      })
    inputs = [control]
    element = wrap(h("label", { for: id }, field.label, requiredMark(required)), help, control)
    read = () => control.value
    write = (value) => {
      control.value = asText(value)
    }
  }

  // The help describes the control from the start; an error joins it while shown.
  const describe = (invalid: boolean) => {
    const ids = [...(help === null || grouped ? [] : [helpId]), ...(invalid ? [errorId] : [])]
    for (const input of inputs) {
      if (ids.length > 0) input.setAttribute("aria-describedby", ids.join(" "))
      else input.removeAttribute("aria-describedby")
    }
  }
  describe(false)

  const setErrors = (errors: ReadonlyArray<FieldError>) => {
    const invalid = errors.length > 0
    setText(error, errors.map((e) => e.message).join(" "))
    error.hidden = !invalid
    for (const input of inputs) {
      if (invalid) input.setAttribute("aria-invalid", "true")
      else input.removeAttribute("aria-invalid")
    }
    describe(invalid)
  }

  // A disabled control (a full time slot) cannot take focus: the first enabled one does.
  const focusTarget = (): HTMLElement => inputs.find((input) => !input.disabled) ?? inputs[0] ?? element
  const control = { slug: field.slug, element, read, write, setErrors, focusTarget }
  return refreshSlots === undefined ? control : { ...control, refreshSlots }
}
