/** A plain, value-free sentence for an error that stops the server or the CLI. */
import { Cause } from "effect"

const message = (error: unknown): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const tag = "_tag" in error && typeof error._tag === "string" ? error._tag : undefined
  switch (tag) {
    case "StartupError":
    case "FixtureRejected":
    case "EmbeddedPgError":
    case "TokenRejected":
    case "RecordNotFound":
      return "message" in error && typeof error.message === "string" ? error.message : tag
    case "Unavailable":
      return `The database cannot be reached (${"reason" in error ? String(error.reason) : "no answer"}).`
    case "ServeError":
      return `The server cannot listen: ${
        "cause" in error && error.cause instanceof Error ? error.cause.message : "unknown reason"
      }.`
    default:
      return tag ?? (error instanceof Error ? error.name : "unexpected error")
  }
}

export const describeCause = (cause: Cause.Cause<unknown>): string => message(Cause.squash(cause))
