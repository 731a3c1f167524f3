/**
 * The member checks of an engagement's bodies (CONTRACT §12, §21): a new engagement (its references, its contact
 * and its advance sections with their deadlines and locks), a change of the engagement, a change of a section.
 */
import { Result } from "effect"
import type { Body } from "../../rules/bodyChecks.js"
import type { FieldErrors } from "../../rules/FieldErrors.js"
import { isEmail } from "../../rules/types.js"
import type { SchedulePatch } from "../../portal/SectionLock.js"
import {
  booleanOrNullCheck,
  type Check,
  checkBody,
  instantOrNullCheck,
  nameCheck,
  positionCheck,
  type Spec,
  str
} from "../catalog/memberChecks.js"
import type { AdvanceSectionInput, EngagementInput, EngagementPatch } from "./EngagementModel.js"

/** Most advance sections one engagement may be created with. */
export const maxAdvanceSections = 100

const idCheck: Check<string> = (value, path, c) =>
  typeof value === "string" && value.length > 0 && value.length <= 255 && !value.includes("\u0000")
    ? value
    : void c.add(path, "invalid", "A non-empty id string is expected.")

/** An address by the `email` rule of the fields (422 `email`), or null to clear. */
const contactEmailCheck: Check<string | null> = (value, path, c) => {
  if (value === null) return null
  if (typeof value !== "string" || value.includes("\u0000")) return void c.add(path, "invalid", "A string or null is expected.")
  return isEmail(value) ? value : void c.add(path, "email", "A valid email address is expected.")
}

/** `due_at`, `locks_at` (instants or null) and `locked` (true, false or null) of a section. */
const scheduleSpec: Spec = { due_at: instantOrNullCheck, locks_at: instantOrNullCheck, locked: booleanOrNullCheck }

const advanceSectionSpec: Spec = { name: nameCheck, position: positionCheck, ...scheduleSpec }

const orNull = <A>(m: Record<string, unknown>, key: string): A | null => (key in m ? (m[key] as A) : null)

/** `advance_sections`: an array of at most 100 sections, each member checked at its dotted path. */
const advanceSectionsCheck: Check<ReadonlyArray<AdvanceSectionInput>> = (value, path, c) => {
  if (!Array.isArray(value)) return void c.add(path, "invalid", "An array is expected.")
  if (value.length > maxAdvanceSections) return void c.add(path, "max", `At most ${maxAdvanceSections} items.`)
  const out: Array<AdvanceSectionInput> = []
  value.forEach((item: unknown, index) => {
    const at = `${path}.${index}`
    if (typeof item !== "object" || item === null || Array.isArray(item)) return void c.add(at, "invalid", "An object is expected.")
    const checked = checkBody(item as Body, advanceSectionSpec, ["name", "position"])
    if (Result.isFailure(checked)) {
      for (const [key, errors] of Object.entries(checked.failure)) for (const e of errors) c.addError(`${at}.${key}`, e)
      return
    }
    const m = checked.success
    out.push({
      name: str(m, "name"),
      position: Number(m["position"]),
      due_at: orNull<number>(m, "due_at"),
      locks_at: orNull<number>(m, "locks_at"),
      lock_setting: orNull<boolean>(m, "locked")
    })
  })
  return out
}

const engagementSpec: Spec = {
  event_id: idCheck,
  master_artist_id: idCheck,
  contact_email: contactEmailCheck,
  advance_sections: advanceSectionsCheck
}

export const engagementInput = (body: Body): Result.Result<EngagementInput, FieldErrors> =>
  Result.map(checkBody(body, engagementSpec, ["event_id", "master_artist_id", "advance_sections"]), (m) => ({
    event_id: str(m, "event_id"),
    master_artist_id: str(m, "master_artist_id"),
    contact_email: orNull<string>(m, "contact_email"),
    advance_sections: m["advance_sections"] as EngagementInput["advance_sections"]
  }))

/** `PATCH /admin/engagements/{id}`: `{ contact_email? }`. */
export const engagementPatch = (body: Body): Result.Result<EngagementPatch, FieldErrors> =>
  Result.map(
    checkBody(body, { contact_email: contactEmailCheck }, []),
    (m): EngagementPatch => ("contact_email" in m ? { contact_email: m["contact_email"] as string | null } : {})
  )

/** `PATCH /admin/engagements/{id}/sections/{section_id}`: `{ due_at?, locks_at?, locked? }`. */
export const sectionPatch = (body: Body): Result.Result<SchedulePatch, FieldErrors> =>
  Result.map(checkBody(body, scheduleSpec, []), (m): SchedulePatch => ({
    ...("due_at" in m ? { due_at: m["due_at"] as number | null } : {}),
    ...("locks_at" in m ? { locks_at: m["locks_at"] as number | null } : {}),
    ...("locked" in m ? { lock_setting: m["locked"] as boolean | null } : {})
  }))
