/** The shared public-token resolver (CONTRACT §3): current token, or the previous one inside the grace window. */
import type { FormSchema } from "../forms/FormSchema.js"

/** Reached only through the artist portal, never by a public token. */
export const portalOnlyFormType = "artist_advance"

/**
 * The schema a public token opens, or undefined (→ 404 FORM_NOT_FOUND). `schema` is what the port found
 * for the token (by current or previous token); the grace rule is decided here, not in the store:
 * a previous token works while `now - token_rotated_at < graceSeconds`.
 */
export const resolvePublicForm = (
  schema: FormSchema | undefined,
  token: string,
  nowMs: number,
  graceSeconds: number
): FormSchema | undefined => {
  if (schema === undefined) return undefined
  if (schema.status !== "published" || schema.type === portalOnlyFormType) return undefined
  if (schema.public_token !== null && schema.public_token === token) return schema
  if (schema.previous_public_token === null || schema.previous_public_token !== token) return undefined
  if (schema.token_rotated_at === null) return undefined
  return nowMs - schema.token_rotated_at < graceSeconds * 1000 ? schema : undefined
}

/** Published, `opens_at` null or reached, `closes_at` null or still ahead. */
export const acceptsSubmissions = (schema: FormSchema, nowMs: number): boolean =>
  schema.status === "published" &&
  (schema.opens_at === null || schema.opens_at <= nowMs) &&
  (schema.closes_at === null || schema.closes_at > nowMs)
