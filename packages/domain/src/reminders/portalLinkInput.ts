/** The body of `POST /admin/engagements/{id}/portal-link`: `{ send_to? }`, an address by the `email` rule or null. */
import { Result } from "effect"
import type { Body } from "../rules/bodyChecks.js"
import type { FieldErrors } from "../rules/FieldErrors.js"
import { isEmail } from "../rules/types.js"
import { type Check, checkBody } from "../organiser/catalog/memberChecks.js"

export interface PortalLinkInput {
  /** Where the new link is mailed; null: nowhere (the link is only shown). */
  readonly send_to: string | null
}

const sendToCheck: Check<string | null> = (value, path, c) => {
  if (value === null) return null
  if (typeof value !== "string" || value.includes("\u0000")) return void c.add(path, "invalid", "A string or null is expected.")
  return isEmail(value) ? value : void c.add(path, "email", "A valid email address is expected.")
}

export const portalLinkInput = (body: Body): Result.Result<PortalLinkInput, FieldErrors> =>
  Result.map(checkBody(body, { send_to: sendToCheck }, []), (m) => ({
    send_to: typeof m["send_to"] === "string" ? m["send_to"] : null
  }))
