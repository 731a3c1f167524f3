/** The engagements' list filter on the wire: `?overdue=true` (once), or none; anything else is 400 INVALID_QUERY. */
import { Result } from "effect"

export const overdueOf = (url: string): Result.Result<boolean, "InvalidQuery"> => {
  const start = url.indexOf("?")
  const query = new URLSearchParams(start < 0 ? "" : url.slice(start + 1).split("#")[0])
  const values = query.getAll("overdue")
  if (values.length === 0) return Result.succeed(false)
  return values.length === 1 && values[0] === "true" ? Result.succeed(true) : Result.fail("InvalidQuery")
}
