/** The member checks of a new master artist's body (CONTRACT §12). */
import { Result } from "effect"
import type { Body } from "../../rules/bodyChecks.js"
import type { FieldErrors } from "../../rules/FieldErrors.js"
import { checkBody, nameCheck, str } from "../catalog/memberChecks.js"

export const artistInput = (body: Body): Result.Result<{ readonly name: string }, FieldErrors> =>
  Result.map(checkBody(body, { name: nameCheck }, ["name"]), (m) => ({ name: str(m, "name") }))
