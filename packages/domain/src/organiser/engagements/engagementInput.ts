/** The member checks of a new engagement's body (CONTRACT §12): its references and advance sections. */
import { Result } from "effect"
import type { Body } from "../../rules/bodyChecks.js"
import type { FieldErrors } from "../../rules/FieldErrors.js"
import { type Check, checkBody, nameCheck, positionCheck, type Spec, str } from "../catalog/memberChecks.js"
import type { EngagementInput } from "./EngagementModel.js"

/** Most advance sections one engagement may be created with. */
export const maxAdvanceSections = 100

const idCheck: Check<string> = (value, path, c) =>
  typeof value === "string" && value.length > 0 && value.length <= 255 && !value.includes("\u0000")
    ? value
    : void c.add(path, "invalid", "A non-empty id string is expected.")

const advanceSectionSpec: Spec = { name: nameCheck, position: positionCheck }

/** `advance_sections`: an array of at most 100 `{ name, position }`, each member checked at its dotted path. */
const advanceSectionsCheck: Check<EngagementInput["advance_sections"]> = (value, path, c) => {
  if (!Array.isArray(value)) return void c.add(path, "invalid", "An array is expected.")
  if (value.length > maxAdvanceSections) return void c.add(path, "max", `At most ${maxAdvanceSections} items.`)
  const out: Array<{ readonly name: string; readonly position: number }> = []
  value.forEach((item: unknown, index) => {
    const at = `${path}.${index}`
    if (typeof item !== "object" || item === null || Array.isArray(item)) return void c.add(at, "invalid", "An object is expected.")
    const checked = checkBody(item as Body, advanceSectionSpec, ["name", "position"])
    if (Result.isFailure(checked)) {
      for (const [key, errors] of Object.entries(checked.failure)) for (const e of errors) c.addError(`${at}.${key}`, e)
      return
    }
    out.push({ name: str(checked.success, "name"), position: Number(checked.success["position"]) })
  })
  return out
}

const engagementSpec: Spec = { event_id: idCheck, master_artist_id: idCheck, advance_sections: advanceSectionsCheck }

export const engagementInput = (body: Body): Result.Result<EngagementInput, FieldErrors> =>
  Result.map(checkBody(body, engagementSpec, ["event_id", "master_artist_id", "advance_sections"]), (m) => ({
    event_id: str(m, "event_id"),
    master_artist_id: str(m, "master_artist_id"),
    advance_sections: m["advance_sections"] as EngagementInput["advance_sections"]
  }))
