/**
 * What refuses a `visible_if` before it is stored (CONTRACT §18, rule `logic`): an operator outside the list, a
 * `var` that is not a literal slug of the form, a literal that is not a string, number, boolean, null or an array
 * of these, a condition over 2,000 characters as compact JSON or nested deeper than 10. References to the field
 * itself, to a section's own fields, and cycles are the form's check (`formLogic.ts`).
 */
import { argumentsOf, conditionOperators, isOperation, varSlug } from "./condition.js"

export const conditionLimits = { characters: 2000, depth: 10 } as const

const allowed: ReadonlySet<string> = new Set(conditionOperators)

/** Nesting of arrays and objects (a literal is 0, `{ "var": "a" }` 1), stopping past `limit`. */
const depthOf = (value: unknown, limit: number): number => {
  if (typeof value !== "object" || value === null) return 0
  if (limit < 0) return 1
  let deepest = 0
  for (const item of Array.isArray(value) ? value : Object.values(value)) {
    deepest = Math.max(deepest, depthOf(item, limit - 1))
    if (deepest > limit) break
  }
  return deepest + 1
}

const isLiteral = (value: unknown): boolean =>
  value === null || typeof value === "string" || typeof value === "boolean" ||
  (typeof value === "number" && Number.isFinite(value)) || (Array.isArray(value) && value.every(isLiteral))

/** A condition's problems (sentences) and the slugs its `var`s read, in order of appearance, each once. */
export interface ConditionCheck {
  readonly problems: ReadonlyArray<string>
  readonly reads: ReadonlyArray<string>
}

/** Checks one condition against the form's slugs. `null` (always active) has no problem and reads nothing. */
export const checkCondition = (condition: unknown, slugs: ReadonlySet<string>): ConditionCheck => {
  if (condition === null || condition === undefined) return { problems: [], reads: [] }
  const json = JSON.stringify(condition)
  if (json !== undefined && json.length > conditionLimits.characters) {
    return { problems: [`A condition is at most ${conditionLimits.characters} characters as compact JSON.`], reads: [] }
  }
  if (depthOf(condition, conditionLimits.depth) > conditionLimits.depth) {
    return { problems: [`A condition nests arrays and objects at most ${conditionLimits.depth} deep.`], reads: [] }
  }
  const problems = new Set<string>()
  const reads = new Set<string>()
  const visit = (node: unknown): void => {
    if (isOperation(node)) {
      const op = Object.keys(node)[0] as string
      if (!allowed.has(op)) {
        problems.add(`The operator ${JSON.stringify(op)} is not one of ${conditionOperators.join(" ")}.`)
        return
      }
      if (op === "var") {
        const slug = varSlug(node[op])
        if (slug === undefined) problems.add(`A var takes one literal slug: { "var": "slug" }.`)
        else if (!slugs.has(slug)) problems.add(`The var ${JSON.stringify(slug)} names no field of this form.`)
        else reads.add(slug)
        return
      }
      // An operator's argument list may hold operations; any other array is a literal of literals.
      for (const arg of argumentsOf(node, op)) visit(arg)
      return
    }
    if (!isLiteral(node)) {
      problems.add("Each part of a condition is an operation { \"operator\": [arguments] } or a string, number, boolean, null or an array of these.")
    }
  }
  visit(condition)
  return { problems: [...problems], reads: [...reads] }
}
