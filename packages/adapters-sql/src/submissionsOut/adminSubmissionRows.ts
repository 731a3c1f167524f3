/** Submissions and their contacts as the organiser reads them (CONTRACT §12): a plain mapping, cheap per row (exports read 100,000s). */
import type { AdminContact, AdminSubmission } from "@forms/domain"
import { epochMs, sortedTags, tagsOf, toValues } from "../sql/sqlValues.js"
import { submissionPlacesColumn, toSubmissionPlaces } from "../shifts/placeRows.js"

/** Over `submissions s`. */
export const adminSubmissionColumns = [
  "s.id::text AS id",
  "s.schema_id AS form_id",
  "s.status",
  "s.idempotency_key",
  "s.auto_save_count",
  "s.event_id",
  "s.values",
  "s.tags",
  "s.contact_id::text AS contact_id",
  "s.language",
  `${epochMs("s.created_at")} AS created_at`,
  `${epochMs("s.updated_at")} AS updated_at`,
  `${epochMs("s.submitted_at")} AS submitted_at`,
  `${submissionPlacesColumn} AS places`
].join(", ")

interface Row {
  readonly id: string
  readonly form_id: string
  readonly status: string
  readonly idempotency_key: string
  readonly auto_save_count: number
  readonly event_id: string | null
  readonly values: unknown
  readonly tags: unknown
  readonly contact_id: string | null
  readonly language: string
  readonly created_at: number
  readonly updated_at: number
  readonly submitted_at: number | null
  readonly places: unknown
}

/** A row of `adminSubmissionColumns`; one of another shape is a bug of this adapter (it throws: a defect). */
export const toAdminSubmission = (raw: unknown): AdminSubmission => {
  const row = raw as Row
  if ((row.status !== "draft" && row.status !== "submitted") || typeof row.id !== "string" || typeof row.created_at !== "number") {
    throw new Error(`submissions row ${String(row.id)} does not decode`)
  }
  return {
    id: row.id,
    form_id: row.form_id,
    status: row.status,
    idempotency_key: row.idempotency_key,
    auto_save_count: row.auto_save_count,
    event_id: row.event_id,
    values: toValues(row.values),
    tags: sortedTags(tagsOf(row.tags)),
    contact_id: row.contact_id,
    language: row.language,
    created_at: row.created_at,
    updated_at: row.updated_at,
    submitted_at: row.submitted_at,
    ...(row.places === null || row.places === undefined ? {} : { places: toSubmissionPlaces(row.places) })
  }
}

/** Over `contacts c`. */
export const adminContactColumns = `c.id::text AS id, c.key, c.tags, ${epochMs("c.created_at")} AS created_at,
  COALESCE((SELECT json_agg(s.id::text ORDER BY s.created_at, s.id::text COLLATE "C") FROM submissions s
    WHERE s.contact_id = c.id), '[]'::json) AS submission_ids`

export const toAdminContact = (raw: unknown): AdminContact => {
  const row = raw as { id: string; key: string; tags: unknown; created_at: number; submission_ids: unknown }
  return {
    id: row.id,
    key: row.key,
    tags: sortedTags(tagsOf(row.tags)),
    submission_ids: Array.isArray(row.submission_ids) ? row.submission_ids.filter((s): s is string => typeof s === "string") : [],
    created_at: row.created_at
  }
}
