/**
 * What every check of a request body shares (the organiser's bodies, form definitions, webhooks): the problems
 * collected member by member and answered at once, keyed by dotted path, as the 422's `fields`.
 */
import { Effect, Result } from "effect"
import { ValidationFailed } from "./errors.js"
import type { FieldError, FieldErrors, RuleName } from "./FieldErrors.js"

/** A JSON object body as parsed: only its own keys are read. */
export type Body = Readonly<Record<string, unknown>>

/** The problems of one body, by dotted path, each path's in the order found (a null-prototype map). */
export class FieldProblems {
  readonly errors: Record<string, Array<FieldError>> = Object.create(null) as Record<string, Array<FieldError>>
  /** Adds a problem; answers undefined, so a check can `return problems.add(…)` for "no value". */
  add(path: string, rule: RuleName, message: string): undefined {
    this.addError(path, { rule, message })
    return undefined
  }
  addError(path: string, error: FieldError): void {
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
