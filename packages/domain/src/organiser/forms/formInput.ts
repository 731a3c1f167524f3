/**
 * A form definition body (CONTRACT §12) member by member, then the one definition check
 * (`checkDefinition.ts`): every problem at once, keyed by dotted path. Read-only members of a form
 * as answered are ignored, so GET → edit → PUT works unchanged.
 */
import { Result } from "effect"
import {
  type Body,
  codePoints,
  FieldProblems,
  has,
  isObject,
  isStorable,
  requiredMembers,
  unknownMembers
} from "../../rules/bodyChecks.js"
import type { FieldOption, FormField, ValidationRules } from "../../forms/FormField.js"
import type { FormSection, FormStatus } from "../../forms/FormSchema.js"
import type { FieldErrors } from "../../rules/FieldErrors.js"
import { readMessages } from "../../messages/messagesInput.js"
import { isStorableInstant, timestampPattern } from "../catalog/memberChecks.js"
import { checkDefinition } from "./checkDefinition.js"
import { languageMembers } from "../../languages/translationsInput.js"
import { readCancelUntilHours } from "../../shifts/cancelUntilInput.js"
import type { FormDefinition, FormPatch } from "./FormModel.js"

/** Members a form is answered with that a client may send back: ignored. */
export const readOnlyFormMembers: ReadonlySet<string> = new Set([
  "id",
  "organisation_id",
  "revision",
  "public_token",
  "previous_public_token",
  "token_rotated_at",
  "public_url",
  "page_url",
  "created_at",
  "updated_at",
  "counts",
  "missing_translations"
])

const statuses: ReadonlyArray<string> = ["draft", "published", "archived"]
const maxNameLength = 500
const maxIdLength = 255
const maxTags = 100
const maxPosition = 1_000_000_000

export { isStorable }

const str = (e: FieldProblems, path: string, value: unknown): string | undefined =>
  isStorable(value) ? value : e.add(path, "invalid", "A string is expected (without U+0000 or unpaired surrogates).")

const text = (e: FieldProblems, path: string, value: unknown, max: number): string | undefined => {
  if (!isStorable(value)) return e.add(path, "invalid", "A string is expected (without U+0000 or unpaired surrogates).")
  if (value.trim() === "") return e.add(path, "required", "This member is required.")
  if (codePoints(value) > max) return e.add(path, "max", `At most ${max} characters.`)
  return value
}

const id = (e: FieldProblems, path: string, value: unknown): string | undefined =>
  isStorable(value) && value.length > 0 && value.length <= maxIdLength
    ? value
    : e.add(path, "invalid", "A non-empty id string is expected.")

const idOrNull = (e: FieldProblems, path: string, value: unknown): string | null | undefined =>
  value === null ? null : id(e, path, value)

const instant = (e: FieldProblems, path: string, value: unknown): number | null | undefined => {
  if (value === null) return null
  const ms = typeof value === "string" && timestampPattern.test(value) ? Date.parse(value) : NaN
  return isStorableInstant(ms)
    ? ms
    : e.add(path, "invalid", "An RFC 3339 date-time with a zone (years 0001 to 9999), or null, is expected.")
}

const status = (e: FieldProblems, path: string, value: unknown): FormStatus | undefined =>
  typeof value === "string" && statuses.includes(value)
    ? (value as FormStatus)
    : e.add(path, "invalid", "One of draft, published, archived is expected.")

const bool = (e: FieldProblems, path: string, value: unknown): boolean | undefined =>
  typeof value === "boolean" ? value : e.add(path, "invalid", "true or false is expected.")

const position = (e: FieldProblems, path: string, value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= maxPosition
    ? value
    : e.add(path, "invalid", "A number is expected.")

const strings = (e: FieldProblems, path: string, value: unknown, max: number): ReadonlyArray<string> | undefined => {
  if (!Array.isArray(value)) return e.add(path, "invalid", "An array of strings is expected.")
  if (value.length > max) return e.add(path, "max", `At most ${max} items.`)
  const out: Array<string> = []
  value.forEach((item: unknown, i) => {
    const checked = text(e, `${path}.${i}`, item, maxNameLength)
    if (checked !== undefined) out.push(checked)
  })
  return out.length === value.length ? out : undefined
}

const option = (e: FieldProblems, path: string, value: unknown): FieldOption | undefined => {
  if (typeof value === "string") return str(e, path, value) === undefined ? undefined : { value, label: value, tags: [] }
  if (!isObject(value)) return e.add(path, "invalid", "A string or { value, label?, tags? } is expected.")
  unknownMembers(e, value, ["value", "label", "tags"], { prefix: `${path}.` })
  requiredMembers(e, value, ["value"], { prefix: `${path}.` })
  const v = has(value, "value") ? str(e, `${path}.value`, value["value"]) : undefined
  const label = has(value, "label") ? str(e, `${path}.label`, value["label"]) : v
  const tags = has(value, "tags") ? strings(e, `${path}.tags`, value["tags"], maxTags) : []
  return v === undefined || label === undefined || tags === undefined ? undefined : { value: v, label, tags }
}

const options = (e: FieldProblems, path: string, value: unknown): ReadonlyArray<FieldOption> | null | undefined => {
  if (value === null) return null
  if (!Array.isArray(value)) return e.add(path, "invalid", "null or an array of options is expected.")
  const out = value.map((item: unknown, i) => option(e, `${path}.${i}`, item))
  return out.every((o) => o !== undefined) ? (out as ReadonlyArray<FieldOption>) : undefined
}

const rules = (e: FieldProblems, path: string, value: unknown): ValidationRules | null | undefined => {
  if (value === null) return null
  if (!isObject(value)) return e.add(path, "invalid", "null or { min?, max?, regex?, regex_message?, max_bytes?, accept? } is expected.")
  unknownMembers(e, value, ["min", "max", "regex", "regex_message", "max_bytes", "accept"], { prefix: `${path}.` })
  const out: {
    min?: number | string
    max?: number | string
    regex?: string
    regex_message?: string
    max_bytes?: number
    accept?: ReadonlyArray<string>
  } = {}
  let ok = true
  for (const key of ["min", "max"] as const) {
    if (!has(value, key)) continue
    const bound = value[key]
    if ((typeof bound === "number" && Number.isFinite(bound)) || isStorable(bound)) out[key] = bound
    else ok = e.add(`${path}.${key}`, "invalid", "A number or a string is expected.") ?? false
  }
  if (has(value, "regex")) {
    const regex = value["regex"]
    if (isStorable(regex)) out.regex = regex
    else ok = e.add(`${path}.regex`, "invalid", "A string is expected.") ?? false
  }
  // Its length is the definition check's (fixtures alike); here only that it is a string that can be stored.
  if (has(value, "regex_message")) {
    const message = value["regex_message"]
    if (isStorable(message)) out.regex_message = message
    else ok = e.add(`${path}.regex_message`, "invalid", "A string is expected (without U+0000 or unpaired surrogates).") ?? false
  }
  // The file rules' members: their values are checked by the definition check (rules/fileRules.ts).
  if (has(value, "max_bytes")) {
    const maxBytes = value["max_bytes"]
    if (typeof maxBytes === "number" && Number.isFinite(maxBytes)) out.max_bytes = maxBytes
    else ok = e.add(`${path}.max_bytes`, "invalid", "A number is expected.") ?? false
  }
  if (has(value, "accept")) {
    const accept = strings(e, `${path}.accept`, value["accept"], 50)
    if (accept === undefined) ok = false
    else out.accept = accept
  }
  return ok ? out : undefined
}

const fieldMembers = [
  "id", "section_id", "slug", "label", "type", "is_required", "options", "validation_rules", "is_unique", "position",
  "maps_to", "visible_if", "help"
]

/** Strings and keys PostgreSQL can store, down to the depth a condition may have (deeper ones are refused as `logic`). */
const storableJson = (value: unknown, depth: number): boolean => {
  if (typeof value === "string") return isStorable(value)
  if (typeof value !== "object" || value === null || depth > 12) return true
  if (Array.isArray(value)) return value.every((item: unknown) => storableJson(item, depth + 1))
  return Object.entries(value).every(([key, item]) => isStorable(key) && storableJson(item, depth + 1))
}

/** A `visible_if` (CONTRACT §18): null or a JSON value; what JSON Logic allows is the definition check's. */
const condition = (e: FieldProblems, path: string, value: unknown): unknown =>
  storableJson(value, 0) ? value : e.add(path, "invalid", "Strings without U+0000 or unpaired surrogates are expected.")

const helpText = (e: FieldProblems, path: string, value: unknown): string | null | undefined =>
  value === null ? null : str(e, path, value)

/** A field with its id possibly missing (the use case generates it). */
export type FieldInput = Omit<FormField, "id"> & { readonly id: string | undefined }
export type SectionInput = Omit<FormSection, "id"> & { readonly id: string | undefined }

/** A part's `position` when none is sent: its 1-based index in its list, so the order written is kept. */
const listPosition = (index: number): number => index + 1

const field = (e: FieldProblems, path: string, value: unknown, index: number): FieldInput | undefined => {
  if (!isObject(value)) return e.add(path, "invalid", "An object is expected.")
  const p = `${path}.`
  unknownMembers(e, value, fieldMembers, { prefix: p })
  requiredMembers(e, value, ["slug", "label", "type"], { prefix: p })
  const get = <A>(key: string, check: (e: FieldProblems, path: string, v: unknown) => A | undefined, fallback: A): A | undefined =>
    has(value, key) ? check(e, `${p}${key}`, value[key]) : fallback
  const out = {
    id: get<string | undefined>("id", id, undefined),
    section_id: get("section_id", idOrNull, null),
    slug: has(value, "slug") ? str(e, `${p}slug`, value["slug"]) : undefined,
    label: has(value, "label") ? str(e, `${p}label`, value["label"]) : undefined,
    type: has(value, "type") ? text(e, `${p}type`, value["type"], 64) : undefined,
    is_required: get("is_required", bool, false),
    options: get("options", options, null),
    validation_rules: get("validation_rules", rules, null),
    is_unique: get("is_unique", bool, false),
    position: get("position", position, listPosition(index)),
    maps_to: get("maps_to", (e2, p2, v) => (v === null ? null : str(e2, p2, v)), null),
    visible_if: get<unknown>("visible_if", condition, null),
    help: get("help", helpText, null)
  }
  if (out.slug === undefined || out.label === undefined || out.type === undefined || out.section_id === undefined ||
    out.is_required === undefined || out.options === undefined || out.validation_rules === undefined ||
    out.is_unique === undefined || out.position === undefined || out.maps_to === undefined ||
    out.visible_if === undefined || out.help === undefined) return undefined
  if (has(value, "id") && out.id === undefined) return undefined
  // A part leaves out the members it has no value for (null and absent mean the same).
  const { visible_if, help, ...rest } = out
  return { ...rest, ...(visible_if === null ? {} : { visible_if }), ...(help === null ? {} : { help }) } as FieldInput
}

const section = (e: FieldProblems, path: string, value: unknown, index: number): SectionInput | undefined => {
  if (!isObject(value)) return e.add(path, "invalid", "An object is expected.")
  unknownMembers(e, value, ["id", "name", "position", "visible_if"], { prefix: `${path}.` })
  requiredMembers(e, value, ["name"], { prefix: `${path}.` })
  const sectionId = has(value, "id") ? id(e, `${path}.id`, value["id"]) : undefined
  const name = has(value, "name") ? text(e, `${path}.name`, value["name"], maxNameLength) : undefined
  const pos = has(value, "position") ? position(e, `${path}.position`, value["position"]) : listPosition(index)
  const visibleIf = has(value, "visible_if") ? condition(e, `${path}.visible_if`, value["visible_if"]) : null
  if ((has(value, "id") && sectionId === undefined) || name === undefined || pos === undefined || visibleIf === undefined) {
    return undefined
  }
  return {
    id: sectionId,
    name,
    position: pos,
    ...(visibleIf === null ? {} : { visible_if: visibleIf as NonNullable<FormSection["visible_if"]> })
  }
}

/** A definition whose omitted ids are still missing: `withIds` fills them. */
export interface DefinitionInput extends Omit<FormDefinition, "sections" | "fields"> {
  readonly sections: ReadonlyArray<SectionInput>
  readonly fields: ReadonlyArray<FieldInput>
}

const list = <A>(
  e: FieldProblems,
  path: string,
  value: unknown,
  item: (e: FieldProblems, path: string, v: unknown, index: number) => A | undefined
) => {
  if (!Array.isArray(value)) return e.add(path, "invalid", "An array is expected.")
  return value.map((v: unknown, i) => ({ index: i, item: item(e, `${path}.${i}`, v, i) }))
}

/** The body as a definition, or every problem of it at its dotted path (the definition check included). */
export const definitionInput = (
  body: Body,
  /** The server's cap on a file field's `max_bytes` (FILE_MAX_BYTES; default 25 MiB). */
  options: { readonly fileMaxBytes?: number } = {}
): Result.Result<DefinitionInput, FieldErrors> => {
  const e = new FieldProblems(body)
  unknownMembers(e, body, [
    "name", "type", "event_id", "status", "opens_at", "closes_at", "tags", "sections", "fields", "messages", "languages",
    "translations", "cancel_until_hours"
  ], {
    ignored: readOnlyFormMembers
  })
  requiredMembers(e, body, ["name", "type", "event_id"])
  const name = has(body, "name") ? text(e, "name", body["name"], maxNameLength) : undefined
  const type = has(body, "type") ? text(e, "type", body["type"], 64) : undefined
  const eventId = has(body, "event_id") ? idOrNull(e, "event_id", body["event_id"]) : undefined
  const st = has(body, "status") ? status(e, "status", body["status"]) : "draft"
  const opensAt = has(body, "opens_at") ? instant(e, "opens_at", body["opens_at"]) : null
  const closesAt = has(body, "closes_at") ? instant(e, "closes_at", body["closes_at"]) : null
  const tags = has(body, "tags") ? strings(e, "tags", body["tags"], maxTags) : []
  const sections = has(body, "sections") ? list(e, "sections", body["sections"], section) : []
  const fields = has(body, "fields") ? list(e, "fields", body["fields"], field) : []
  const messages = has(body, "messages") ? readMessages(e, "messages", body["messages"]) : null
  const { languages, translations } = languageMembers(e, body)
  const cancelUntilHours = readCancelUntilHours(e, type, has(body, "cancel_until_hours") ? body["cancel_until_hours"] : null)
  // The definition check on the parts that read well, each reported at its own index.
  if (sections !== undefined && fields !== undefined) {
    const okSections = sections.flatMap((s) => (s.item === undefined ? [] : [{ index: s.index, item: s.item }]))
    const okFields = fields.flatMap((f) => (f.item === undefined ? [] : [{ index: f.index, item: f.item }]))
    // Parts without ids get placeholders no given id can equal (they are unique by construction).
    const problems = checkDefinition({
      type: type ?? undefined,
      sections: okSections.map((s) => ({ ...s.item, id: s.item.id ?? `\u0000s${s.index}` })),
      fields: okFields.map((f) => ({ ...f.item, id: f.item.id ?? `\u0000f${f.index}` })),
      messages: messages ?? null,
      ...(options.fileMaxBytes === undefined ? {} : { fileMaxBytes: options.fileMaxBytes }),
      languages,
      // Without readable languages, which tags a translation may have is unknown.
      translations: languages === undefined ? undefined : translations
    })
    for (const problem of problems) {
      const [head, at, ...rest] = problem.path.split(".")
      const origin = head === "sections" ? okSections : head === "fields" ? okFields : undefined
      const index = at === undefined || origin === undefined ? undefined : origin[Number(at)]?.index
      const path = index === undefined ? problem.path : [head, String(index), ...rest].join(".")
      e.add(path, problem.error.rule, problem.error.message)
    }
  }
  if (opensAt !== undefined && closesAt !== undefined && opensAt !== null && closesAt !== null && opensAt >= closesAt) {
    e.add("closes_at", "invalid", "closes_at must be after opens_at.")
  }
  if (!e.empty || name === undefined || type === undefined || eventId === undefined || st === undefined ||
    opensAt === undefined || closesAt === undefined || tags === undefined || sections === undefined || fields === undefined ||
    messages === undefined || languages === undefined || translations === undefined || cancelUntilHours === undefined) {
    return Result.fail(e.errors)
  }
  return Result.succeed({
    name,
    type,
    event_id: eventId,
    status: st,
    opens_at: opensAt,
    closes_at: closesAt,
    tags,
    sections: sections.flatMap((s) => (s.item === undefined ? [] : [s.item])),
    fields: fields.flatMap((f) => (f.item === undefined ? [] : [f.item])),
    ...(messages === null ? {} : { messages }),
    languages,
    translations,
    ...(cancelUntilHours === null ? {} : { cancel_until_hours: cancelUntilHours })
  })
}

/** A PATCH body: `{ name?, status?, opens_at?, closes_at?, tags? }`. */
export const formPatchInput = (body: Body): Result.Result<FormPatch, FieldErrors> => {
  const e = new FieldProblems(body)
  unknownMembers(e, body, ["name", "status", "opens_at", "closes_at", "tags"])
  const out: Record<string, unknown> = {}
  if (has(body, "name")) out["name"] = text(e, "name", body["name"], maxNameLength)
  if (has(body, "status")) out["status"] = status(e, "status", body["status"])
  if (has(body, "opens_at")) out["opens_at"] = instant(e, "opens_at", body["opens_at"])
  if (has(body, "closes_at")) out["closes_at"] = instant(e, "closes_at", body["closes_at"])
  if (has(body, "tags")) out["tags"] = strings(e, "tags", body["tags"], maxTags)
  return e.empty ? Result.succeed(out as FormPatch) : Result.fail(e.errors)
}

/** Fills the omitted ids with `newId()`; a part sent with an id keeps it (its identity on PUT). */
export const withIds = (input: DefinitionInput, newId: () => string): FormDefinition => {
  const sections = input.sections.map((s) => ({ ...s, id: s.id ?? newId() }))
  const fields = input.fields.map((f) => ({ ...f, id: f.id ?? newId() }))
  return { ...input, sections, fields }
}
