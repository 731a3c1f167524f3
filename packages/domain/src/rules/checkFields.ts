/** The checks that refuse a schema's fields before it is stored, so no request meets a broken rule. */
import { type FormField, SlugPattern } from "../forms/FormField.js"
import { boundKindOf, readBound } from "./bounds.js"
import { patternProblem } from "./regex.js"
import { typeRuleOf } from "./types.js"

const describeBound = (kind: string): string =>
  kind === "date"
    ? "a date (YYYY-MM-DD) or an RFC 3339 date-time"
    : "a finite number or a numeric string"

/**
 * Every problem of `fields`, one sentence each naming the field; empty when they can be stored:
 * a malformed or duplicate slug, a `min`/`max` the field's type cannot compare (a date field needs
 * date bounds, any other field numbers), a `regex` that does not compile on RE2.
 */
export const checkFieldDefinitions = (fields: ReadonlyArray<FormField>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const seen = new Set<string>()
  const reported = new Set<string>()
  for (const field of fields) {
    const slug: unknown = field.slug
    const name = typeof slug === "string" ? JSON.stringify(slug) : String(slug)
    if (typeof slug !== "string" || !SlugPattern.test(slug)) {
      problems.push(`field ${name}: the slug must match ^[a-z][a-z0-9_]{0,63}$.`)
    } else if (seen.has(slug)) {
      if (!reported.has(slug)) problems.push(`field ${name}: the slug is used by more than one field.`)
      reported.add(slug)
    }
    if (typeof slug === "string") seen.add(slug)
    const rules = field.validation_rules
    if (rules === null || rules === undefined) continue
    const kind = boundKindOf(typeRuleOf(field.type))
    for (const key of ["min", "max"] as const) {
      const bound: unknown = rules[key]
      if (bound !== undefined && readBound(kind, bound) === undefined) {
        problems.push(
          `field ${name}: ${key} ${JSON.stringify(bound) ?? String(bound)} is not ${describeBound(kind)} for a field of type ${
            JSON.stringify(field.type)
          }.`
        )
      }
    }
    const regex: unknown = rules.regex
    if (regex !== undefined) {
      const problem = typeof regex === "string" ? patternProblem(regex) : "the pattern is not a string"
      if (problem !== undefined) {
        problems.push(`field ${name}: regex ${JSON.stringify(regex) ?? String(regex)} does not compile: ${problem}.`)
      }
    }
  }
  return problems
}
