/**
 * What every check of a request body shares (the organiser's bodies, form definitions, webhooks): the problems
 * collected member by member and answered at once, keyed by dotted path, as the 422's `fields`.
 */
import { Effect, Result } from "effect"
import { ValidationFailed } from "./errors.js"
import type { FieldError, FieldErrors, RuleName } from "./FieldErrors.js"

/** A JSON object body as parsed: only its own keys are read. */
export type Body = Readonly<Record<string, unknown>>

// PostgreSQL stores neither U+0000 nor an unpaired surrogate (in text or jsonb), and a driver would write the
// surrogate as U+FFFD without a word: such a string is malformed wherever it sits in a body.
const unstorable = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Any string that can be stored (it may be empty). */
export const isStorable = (value: unknown): value is string => typeof value === "string" && !unstorable.test(value)

export const unstorableMessage = "A string without U+0000 or unpaired surrogates is expected."

/**
 * The dotted paths (`advance_sections.0.name`; `prefix` first) of every string in `value`, at any depth, that
 * cannot be stored, in document order. Iterative: a deeply nested body cannot exhaust the stack.
 */
export const unstorablePaths = (value: unknown, prefix = ""): ReadonlyArray<string> => {
  const found: Array<string> = []
  const stack: Array<readonly [unknown, string]> = [[value, prefix]]
  while (stack.length > 0) {
    const next = stack.pop()
    if (next === undefined) break
    const [item, path] = next
    if (typeof item === "string") {
      if (!isStorable(item)) found.push(path)
    } else if (typeof item === "object" && item !== null) {
      const keys = Object.keys(item)
      const at = (key: string) => (path === "" ? key : `${path}.${key}`)
      // Pushed in reverse, so that they are visited (and reported) in document order.
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] ?? ""
        stack.push([(item as Record<string, unknown>)[key], at(key)])
      }
    }
  }
  return found
}

/**
 * The problems of one body, by dotted path, each path's in the order found (a null-prototype map). Made from the
 * body itself, it first names every string of it that cannot be stored (`invalid` at its path, CONTRACT §12): the
 * one point every organiser body passes, so no route can store a lone surrogate as U+FFFD. A path named so takes no
 * further problem (the member checks that follow need not know about such strings).
 */
export class FieldProblems {
  readonly errors: Record<string, Array<FieldError>> = Object.create(null) as Record<string, Array<FieldError>>
  private readonly malformed = new Set<string>()
  constructor(body?: unknown, prefix = "") {
    if (body === undefined) return
    for (const path of unstorablePaths(body, prefix)) {
      this.addError(path, { rule: "invalid", message: unstorableMessage })
      this.malformed.add(path)
    }
  }
  /** Adds a problem; answers undefined, so a check can `return problems.add(…)` for "no value". */
  add(path: string, rule: RuleName, message: string): undefined {
    this.addError(path, { rule, message })
    return undefined
  }
  addError(path: string, error: FieldError): void {
    if (this.malformed.has(path)) return
    const list = this.errors[path] ?? []
    list.push(error)
    Object.defineProperty(this.errors, path, { value: list, enumerable: true, writable: true, configurable: true })
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0
  }
  /** `value` when no problem was added, else every problem. */
  result<A>(value: A): Result.Result<A, FieldErrors> {
    return this.empty ? Result.succeed(value) : Result.fail(this.errors)
  }
}

/** Where a member sits in the body (`fields.2.`, empty at the top) and the members a check passes over. */
export interface MemberOptions {
  readonly prefix?: string
  readonly ignored?: ReadonlySet<string>
}

/** Every member of `body` that is neither in `known` nor ignored is `invalid`. */
export const unknownMembers = (
  problems: FieldProblems,
  body: Body,
  known: ReadonlyArray<string>,
  options: MemberOptions = {}
): void => {
  for (const key of Object.keys(body)) {
    if (known.includes(key) || options.ignored?.has(key) === true) continue
    problems.add(`${options.prefix ?? ""}${key}`, "invalid", "This member is not known.")
  }
}

/** Every member of `keys` that `body` lacks is `required`. */
export const requiredMembers = (
  problems: FieldProblems,
  body: Body,
  keys: ReadonlyArray<string>,
  options: MemberOptions = {}
): void => {
  for (const key of keys) if (!has(body, key)) problems.add(`${options.prefix ?? ""}${key}`, "required", "This member is required.")
}

/** An own member of the body (never one of its prototype's). */
export const has = (body: Body, key: string): boolean => Object.prototype.hasOwnProperty.call(body, key)

/** A JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value)

/** The length of a string in Unicode code points (what the contract's limits count), not UTF-16 units. */
export const codePoints = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

/** A checked body as a use case step: its value, or `ValidationFailed` with every problem. */
export const checked = <A>(result: Result.Result<A, FieldErrors>): Effect.Effect<A, ValidationFailed> =>
  Result.isSuccess(result) ? Effect.succeed(result.success) : Effect.fail(new ValidationFailed({ fields: result.failure }))
