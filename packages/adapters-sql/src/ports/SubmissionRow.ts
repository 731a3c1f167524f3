/** How a submission row is selected and decoded into the domain's `Submission`. */
import { Effect, Schema } from "effect"
import { emptyValues, type Submission } from "@forms/domain"

/** Epoch milliseconds of a timestamptz column, as a float8 (a JavaScript number). */
export const epochMs = (column: string): string => `floor(extract(epoch from ${column}) * 1000)::float8`

export const submissionColumns = [
  "id::text AS id",
  "schema_id",
  "status",
  "idempotency_key",
  "auto_save_count",
  "event_id",
  "subject_id",
  "values",
  `${epochMs("created_at")} AS created_at`,
  `${epochMs("updated_at")} AS updated_at`,
  `${epochMs("submitted_at")} AS submitted_at`,
  "version"
].join(", ")

const SubmissionRow = Schema.Struct({
  id: Schema.String,
  schema_id: Schema.String,
  status: Schema.Literals(["draft", "submitted"]),
  idempotency_key: Schema.String,
  auto_save_count: Schema.Number,
  event_id: Schema.NullOr(Schema.String),
  subject_id: Schema.NullOr(Schema.String),
  values: Schema.Unknown,
  created_at: Schema.Number,
  updated_at: Schema.Number,
  submitted_at: Schema.NullOr(Schema.Number),
  version: Schema.Number
})

/** A JSON object from the database as a null-prototype map (a `__proto__` key stays a plain key). */
export const toValues = (json: unknown): Record<string, unknown> => {
  const out = emptyValues()
  if (typeof json === "object" && json !== null && !Array.isArray(json)) {
    for (const [key, value] of Object.entries(json)) out[key] = value
  }
  return out
}

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(SubmissionRow))

/** Rows that do not decode are a bug of this adapter, not a failure of the caller: they die. */
export const toSubmissions = (rows: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<Submission>> =>
  decodeRows(rows).pipe(
    Effect.map((decoded) => decoded.map((row): Submission => ({ ...row, values: toValues(row.values) }))),
    Effect.orDie
  )

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Ids are checked before any query, so a malformed id is an unknown one, never a SQL error. */
export const isUuid = (id: string): boolean => uuidPattern.test(id)

/** JSON text for a `::jsonb` parameter. */
export const jsonText = (value: unknown): string => JSON.stringify(value)
