/**
 * "Is this form definition valid": the one check the fixture loader (§10) and the organiser API (§12)
 * share. Every problem at once, each at the dotted path of its member, with a §12 rule name.
 */
import { type FormField, mapsToPattern, SlugPattern } from "../../forms/FormField.js"
import type { FormSection } from "../../forms/FormSchema.js"
import { fieldTypeMessage, formTypeMessage, isFieldType, isFormType } from "../../forms/FormTypes.js"
import { boundKindOf, readBound } from "../../rules/bounds.js"
import { defaultServerFileMaxBytes, fileFieldType, fileRuleProblems } from "../../rules/fileRules.js"
import type { FieldError, RuleName } from "../../rules/FieldErrors.js"
import { patternProblem } from "../../rules/regex.js"
import { typeRuleOf } from "../../rules/types.js"
import { checkFormLogic } from "../../logic/formLogic.js"
import { checkMessages } from "../../messages/checkMessages.js"
import type { FormMessages } from "../../messages/FormMessages.js"
import { checkTranslations } from "../../languages/checkTranslations.js"
import type { Translations } from "../../languages/Translations.js"

/** Size limits of one form (CONTRACT §12). */
export const definitionLimits = {
  fields: 500,
  sections: 100,
  options: 500,
  /** Labels (of fields, options) and section names, in Unicode code points. */
  label: 500,
  /** A field's help text, in Unicode code points. */
  help: 1000,
  /** A field's `validation_rules.regex_message`, in Unicode code points. */
  regexMessage: 200
} as const

/** The field type never shown by the page (CONTRACT §18): no type rule, never required or unique. */
export const hiddenFieldType = "hidden"
export const advanceFormType = "artist_advance"

/** The field type that holds time slots (§15): allowed only on a `volunteer` form. */
export const timeSlotsFieldType = "time_slots"
export const volunteerFormType = "volunteer"

export interface DefinitionProblem {
  /** Dotted path of the member: `fields.2.validation_rules.regex`. */
  readonly path: string
  readonly error: FieldError
}

/** The parts of a definition the check reads. */
export interface DefinitionParts {
  /** The form's type; undefined skips the rules that depend on it (a check of fields alone). */
  readonly type: string | undefined
  readonly sections: ReadonlyArray<FormSection>
  readonly fields: ReadonlyArray<FormField>
  /** The server's cap on a file field's `max_bytes` (default 25 MiB). */
  readonly fileMaxBytes?: number
  /** The messages the form asks for (absent or null: none). */
  readonly messages?: FormMessages | null | undefined
  /** The form's languages and translations (§19); absent: `["en"]` and none. */
  readonly languages?: ReadonlyArray<string> | undefined
  readonly translations?: Translations | undefined
}

const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value)

const describeBound = (kind: string): string =>
  kind === "date" ? "a date (YYYY-MM-DD) or an RFC 3339 date-time" : "a finite number or a numeric string"

/** Every problem of the definition's sections and fields; empty when it can be stored. */
export const checkDefinition = (definition: DefinitionParts): ReadonlyArray<DefinitionProblem> => {
  const problems: Array<DefinitionProblem> = []
  const add = (path: string, rule: RuleName, message: string) => problems.push({ path, error: { rule, message } })
  const { sections, fields } = definition

  if (definition.type !== undefined && !isFormType(definition.type)) add("type", "in", formTypeMessage(definition.type))
  if (sections.length > definitionLimits.sections) {
    add("sections", "max", `A form has at most ${definitionLimits.sections} sections.`)
  }
  if (fields.length > definitionLimits.fields) add("fields", "max", `A form has at most ${definitionLimits.fields} fields.`)

  // A value used again is reported once, at its first repeat.
  const repeated = (seen: Set<string>, reported: Set<string>, value: string): boolean => {
    const again = seen.has(value) && !reported.has(value)
    if (again) reported.add(value)
    seen.add(value)
    return again
  }
  const sectionIds = new Set<string>()
  const sectionIdsReported = new Set<string>()
  sections.forEach((section, index) => {
    if (repeated(sectionIds, sectionIdsReported, section.id)) {
      add(`sections.${index}.id`, "unique", `The section id ${show(section.id)} is used by more than one section.`)
    }
    if (codePoints(section.name) > definitionLimits.label) {
      add(`sections.${index}.name`, "max", `At most ${definitionLimits.label} characters.`)
    }
  })

  const fieldIds = new Set<string>()
  const fieldIdsReported = new Set<string>()
  const slugs = new Set<string>()
  const slugsReported = new Set<string>()
  fields.forEach((field, index) => {
    const at = `fields.${index}`
    if (repeated(fieldIds, fieldIdsReported, field.id)) {
      add(`${at}.id`, "unique", `The field id ${show(field.id)} is used by more than one field.`)
    }
    if (typeof field.slug !== "string" || !SlugPattern.test(field.slug)) {
      add(`${at}.slug`, "invalid", "The slug must match ^[a-z][a-z0-9_]{0,63}$.")
    } else if (repeated(slugs, slugsReported, field.slug)) {
      add(`${at}.slug`, "unique", `The slug ${show(field.slug)} is used by more than one field.`)
    }
    if (codePoints(field.label) > definitionLimits.label) add(`${at}.label`, "max", `At most ${definitionLimits.label} characters.`)
    if (!isFieldType(field.type)) add(`${at}.type`, "in", fieldTypeMessage(field.type))
    if (typeof field.help === "string" && codePoints(field.help) > definitionLimits.help) {
      add(`${at}.help`, "max", `At most ${definitionLimits.help} characters.`)
    }
    if (field.type === hiddenFieldType) {
      if (field.is_required) add(`${at}.is_required`, "invalid", "A hidden field cannot be required.")
      if (field.is_unique) add(`${at}.is_unique`, "invalid", "A hidden field cannot be unique.")
    }
    if (field.type === timeSlotsFieldType && definition.type !== undefined && definition.type !== volunteerFormType) {
      add(`${at}.type`, "invalid", "A time_slots field is allowed only on a volunteer form.")
    }
    if (field.section_id !== null && !sectionIds.has(field.section_id)) {
      add(`${at}.section_id`, "in", `The section_id ${show(field.section_id)} is not a section of this form.`)
    }
    if (field.maps_to !== null && !mapsToPattern.test(field.maps_to)) {
      add(`${at}.maps_to`, "invalid", "maps_to must be artist.<key> or engagement.<key> (key ^[a-z][a-z0-9_]{0,63}$).")
    }
    const options = field.options
    if (options !== null) {
      if (options.length > definitionLimits.options) {
        add(`${at}.options`, "max", `A field has at most ${definitionLimits.options} options.`)
      }
      options.forEach((option, j) => {
        if (codePoints(option.label) > definitionLimits.label) {
          add(`${at}.options.${j}.label`, "max", `At most ${definitionLimits.label} characters.`)
        }
      })
    }
    const rules = field.validation_rules
    if (rules === null) return
    if (field.type === fileFieldType) {
      for (const problem of fileRuleProblems(rules, definition.fileMaxBytes ?? defaultServerFileMaxBytes)) {
        add(`${at}.validation_rules.${problem.member}`, problem.rule, problem.message)
      }
    } else if (rules.max_bytes !== undefined || rules.accept !== undefined) {
      const member = rules.max_bytes !== undefined ? "max_bytes" : "accept"
      add(`${at}.validation_rules.${member}`, "invalid", `${member} applies only to a field of type "file".`)
    }
    const kind = boundKindOf(typeRuleOf(field.type))
    const bounds: Record<string, number | undefined> = {}
    for (const key of ["min", "max"] as const) {
      const bound: unknown = rules[key]
      if (bound === undefined) continue
      bounds[key] = readBound(kind, bound)
      if (bounds[key] === undefined) {
        add(
          `${at}.validation_rules.${key}`,
          "invalid",
          `${key} ${show(bound)} is not ${describeBound(kind)} for a field of type ${show(field.type)}.`
        )
      }
    }
    const min = bounds["min"]
    const max = bounds["max"]
    if (min !== undefined && max !== undefined && min > max) {
      add(`${at}.validation_rules.min`, "invalid", `min ${show(rules.min)} is above max ${show(rules.max)}.`)
    }
    const regexMessage: unknown = rules.regex_message
    if (regexMessage !== undefined) {
      if (typeof regexMessage !== "string") {
        add(`${at}.validation_rules.regex_message`, "invalid", "regex_message must be a string.")
      } else if (codePoints(regexMessage) > definitionLimits.regexMessage) {
        add(`${at}.validation_rules.regex_message`, "max", `At most ${definitionLimits.regexMessage} characters.`)
      }
    }
    const regex: unknown = rules.regex
    if (regex !== undefined) {
      const problem = typeof regex === "string"
        ? patternProblem(regex)
        : { kind: "syntax", message: "the pattern is not a string" }
      if (problem !== undefined) {
        const why = problem.kind === "budget" ? "is over the cost budget of a pattern" : "does not compile"
        add(`${at}.validation_rules.regex`, "regex", `regex ${show(regex)} ${why}: ${problem.message}.`)
      }
    }
  })
  for (const problem of checkFormLogic(fields, sections, definition.type === advanceFormType)) {
    add(`${problem.part}.${problem.index}.visible_if`, "logic", problem.message)
  }
  if (definition.messages !== undefined && definition.messages !== null) {
    for (const problem of checkMessages(definition.messages, { type: definition.type, fields })) {
      add(problem.path, problem.rule, problem.message)
    }
  }
  for (const problem of checkTranslations(definition)) problems.push(problem)
  return problems
}

/** The problems as sentences (for the fixture loader's report): `fields.2.slug: The slug must …`. */
export const describeProblems = (problems: ReadonlyArray<DefinitionProblem>): ReadonlyArray<string> =>
  problems.map((p) => `${p.path}: ${p.error.message}`)
