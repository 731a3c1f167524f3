/** Member-by-member checks of webhook bodies (CONTRACT §12 rules, §13 members): every problem at once. */
import type { Result } from "effect"
import { type Body, codePoints, FieldProblems, has, unknownMembers } from "../rules/bodyChecks.js"
import { dateKey } from "../rules/dates.js"
import type { FieldErrors } from "../rules/FieldErrors.js"
import { type TargetPolicy, urlProblem } from "./addressGuard.js"
import { type EndpointInput, type EndpointPatch, webhookEventTypes } from "./WebhookModel.js"

export const maxDescriptionLength = 500

const urlCheck = (value: unknown, policy: TargetPolicy, p: FieldProblems): string | undefined => {
  if (typeof value !== "string") return void p.add("url", "invalid", "A URL string is expected.")
  if (value.trim() === "") return void p.add("url", "required", "This member is required.")
  const problem = urlProblem(value, policy)
  return problem === null ? value : void p.add("url", "invalid", `Not a valid webhook target: ${problem}.`)
}

const typesCheck = (value: unknown, p: FieldProblems): ReadonlyArray<string> | undefined => {
  if (!Array.isArray(value)) return void p.add("event_types", "invalid", "An array of event types is expected.")
  if (value.length === 0) return void p.add("event_types", "required", "At least one event type is required.")
  if (value.length > 10) return void p.add("event_types", "max", "At most 10 event types.")
  const seen = new Set<string>()
  let ok = true
  value.forEach((item: unknown, i) => {
    const path = `event_types.${i}`
    if (typeof item !== "string" || !(item === "*" || webhookEventTypes.some((t) => t === item))) {
      ok = false
      p.add(path, "in", `One of ${webhookEventTypes.join(", ")}, or "*".`)
    } else if (seen.has(item)) {
      ok = false
      p.add(path, "unique", "This event type is listed twice.")
    } else seen.add(item)
  })
  if (ok && seen.has("*") && seen.size > 1) {
    ok = false
    p.add("event_types", "invalid", `"*" stands alone: ["*"].`)
  }
  return ok ? value.map(String) : undefined
}

const descriptionCheck = (value: unknown, p: FieldProblems): string | null | undefined => {
  if (value === null) return null
  if (typeof value !== "string" || value.includes("\u0000")) return void p.add("description", "invalid", "A string or null is expected.")
  if (codePoints(value) > maxDescriptionLength) return void p.add("description", "max", `At most ${maxDescriptionLength} characters.`)
  return value
}

export const endpointInput = (body: Body, policy: TargetPolicy): Result.Result<EndpointInput, FieldErrors> => {
  const p = new FieldProblems(body)
  unknownMembers(p, body, ["url", "event_types", "description"])
  const url = has(body, "url") ? urlCheck(body["url"], policy, p) : void p.add("url", "required", "This member is required.")
  const types = has(body, "event_types")
    ? typesCheck(body["event_types"], p)
    : void p.add("event_types", "required", "This member is required.")
  const description = has(body, "description") ? descriptionCheck(body["description"], p) : null
  return p.result({ url: url ?? "", event_types: types ?? [], description: description ?? null })
}

export const endpointPatch = (body: Body, policy: TargetPolicy): Result.Result<EndpointPatch, FieldErrors> => {
  const p = new FieldProblems(body)
  unknownMembers(p, body, ["url", "event_types", "description", "enabled"])
  const patch: { -readonly [K in keyof EndpointPatch]: EndpointPatch[K] } = {}
  if (has(body, "url")) {
    const url = urlCheck(body["url"], policy, p)
    if (url !== undefined) patch.url = url
  }
  if (has(body, "event_types")) {
    const types = typesCheck(body["event_types"], p)
    if (types !== undefined) patch.event_types = types
  }
  if (has(body, "description")) {
    const description = descriptionCheck(body["description"], p)
    if (description !== undefined) patch.description = description
  }
  if (has(body, "enabled")) {
    if (typeof body["enabled"] === "boolean") patch.enabled = body["enabled"]
    else p.add("enabled", "invalid", "true or false is expected.")
  }
  return p.result(patch)
}

/** `{ since }`: an ISO 8601 time with a zone (Z or an offset). */
export const replaySince = (body: Body): Result.Result<number, FieldErrors> => {
  const p = new FieldProblems(body)
  unknownMembers(p, body, ["since"])
  let since = 0
  if (!has(body, "since")) p.add("since", "required", "This member is required.")
  else {
    const value = body["since"]
    // `dateKey`: a date that exists and a valid time (Date.parse would read 2026-02-31 as 3 March).
    const ok = typeof value === "string" &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && dateKey(value) >= 0 &&
      !Number.isNaN(Date.parse(value))
    if (ok) since = Date.parse(value)
    else p.add("since", "invalid", "An ISO 8601 time with a zone is expected, e.g. 2026-01-31T00:00:00Z.")
  }
  return p.result(since)
}
