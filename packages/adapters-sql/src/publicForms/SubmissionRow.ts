/** How a submission row is selected and decoded into the domain's `Submission`. */
import { Effect } from "effect"
import type { Submission } from "@forms/domain"
import { epochMs, toValues } from "../sql/sqlValues.js"

export const submissionColumns = [
  "id::text AS id",
  "schema_id",
  "status",
  "idempotency_key",
  "auto_save_count",
  "event_id",
  "subject_id",
  "values",
  "language",
  `${epochMs("created_at")} AS created_at`,
  `${epochMs("updated_at")} AS updated_at`,
  `${epochMs("submitted_at")} AS submitted_at`,
  "version"
].join(", ")

/** The row as the driver returns it for `submissionColumns` (text, int4, float8 and jsonb columns). */
interface SubmissionRow {
  readonly id: string
  readonly schema_id: string
  readonly status: string
  readonly idempotency_key: string
  readonly auto_save_count: number
  readonly event_id: string | null
  readonly subject_id: string | null
  readonly values: unknown
  readonly language: string
  readonly created_at: number
  readonly updated_at: number
  readonly submitted_at: number | null
  readonly version: number
}

/** A plain mapping (the rows come from our own SQL); a row that does not fit throws. */
const toSubmission = (row: SubmissionRow): Submission => {
  if (
    (row.status !== "draft" && row.status !== "submitted") || typeof row.id !== "string" ||
    typeof row.version !== "number" || typeof row.created_at !== "number"
  ) {
    throw new Error(`submissions row ${String(row.id)} does not decode`)
  }
  return {
    id: row.id,
    schema_id: row.schema_id,
    status: row.status,
    idempotency_key: row.idempotency_key,
    auto_save_count: row.auto_save_count,
    event_id: row.event_id,
    subject_id: row.subject_id,
    values: toValues(row.values),
    language: row.language,
    created_at: row.created_at,
    updated_at: row.updated_at,
    submitted_at: row.submitted_at,
    version: row.version
  }
}

/** Rows that do not decode are a bug of this adapter, not a failure of the caller: they die. */
export const toSubmissions = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<Submission>> =>
  Effect.sync(() => (rows as ReadonlyArray<SubmissionRow>).map(toSubmission))
