/**
 * A failure as the logs may show it: the class of each error, its reason and its code (an SQLSTATE, a
 * Node error code), never a message, which may quote values (a driver's error text holds the values of
 * the statement that failed).
 */
import { Cause } from "effect"

export interface ErrorDescription {
  /** The `_tag`, else the class name, else the JavaScript type. */
  readonly error: string
  /** The `_tag` of a `reason` (an `SqlError`'s: `UniqueViolation`, `ConnectionError`, …). */
  readonly reason?: string
  /** A code such as an SQLSTATE (`23505`) or `ECONNRESET`. */
  readonly code?: string
}

// Codes are identifiers, never text: anything else is left out.
const codeShape = /^[A-Za-z0-9_]{1,64}$/

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined

const nameOf = (error: unknown): string => {
  const tag = field(error, "_tag")
  if (typeof tag === "string") return tag
  if (error instanceof Error) return error.name
  return error === null ? "null" : typeof error
}

const codeOf = (error: unknown): string | undefined => {
  const reason = field(error, "reason")
  for (const candidate of [field(error, "code"), field(field(reason, "cause"), "code"), field(field(error, "cause"), "code")]) {
    if (typeof candidate === "string" && codeShape.test(candidate)) return candidate
  }
  return undefined
}

/** The class, reason and code of one error or defect. */
export const describeError = (error: unknown): ErrorDescription => {
  const reason = field(error, "reason")
  const reasonTag = field(reason, "_tag")
  const code = codeOf(error)
  return {
    error: nameOf(error),
    ...(typeof reasonTag === "string" ? { reason: reasonTag } : {}),
    ...(code === undefined ? {} : { code })
  }
}

const render = (description: ErrorDescription): string =>
  [description.error, description.reason, description.code].filter((part) => part !== undefined).join(" ")

/** Every reason of a cause, one `Fail|Die <class> [<reason>] [<code>]` each, joined by "; ". */
export const describeCause = (cause: Cause.Cause<unknown>): string =>
  cause.reasons.map((reason) =>
    Cause.isFailReason(reason)
      ? `Fail ${render(describeError(reason.error))}`
      : Cause.isDieReason(reason)
      ? `Die ${render(describeError(reason.defect))}`
      : "Interrupt"
  ).join("; ")
