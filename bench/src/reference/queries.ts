/**
 * The reference server's SQL: plain `postgres` tagged templates, one statement or one transaction each.
 * As in ours (SqlSubmissions.ts), statements keyed by a submission's id test its other columns with
 * `IS NOT DISTINCT FROM`, and the unique check probes the primary key per value: the generic plans cached
 * while the tables were small otherwise scanned a whole form's rows per call (bench/RESULTS.md, session 5).
 */
import type { Sql } from "postgres"
import type { LimitDecision } from "./limiter.js"
import type { UniqueClaim } from "./validate.js"

export interface FormRow {
  readonly id: string
  readonly organisation_id: string
  readonly event_id: string | null
  readonly type: string
  readonly status: string
  readonly public_token: string | null
  readonly previous_public_token: string | null
  readonly token_rotated_at: Date | null
  readonly opens_at: Date | null
  readonly closes_at: Date | null
  readonly fields: ReadonlyArray<unknown>
}

export interface SubmissionRow {
  readonly id: string
  readonly status: "draft" | "submitted"
  readonly idempotency_key: string
  readonly auto_save_count: number
  readonly version: number
  readonly event_id: string | null
  readonly values: Record<string, unknown>
  readonly created_at: Date
  readonly updated_at: Date
  readonly submitted_at: Date | null
}


/** The submit's outcome: stored, a save landed since our read (version moved), or the value is taken. */
export type SubmitOutcome =
  | { readonly _tag: "Submitted"; readonly row: SubmissionRow }
  | { readonly _tag: "Moved" }
  | { readonly _tag: "Taken"; readonly slugs: ReadonlyArray<string> }

class Rollback extends Error {
  constructor(readonly outcome: SubmitOutcome) {
    super("rollback")
  }
}

const lockClass = 0x466f726d

// JSON goes as text cast to jsonb (`::text::jsonb`), as ours sends it: with a bare `::jsonb` the driver
// would infer a json parameter and stringify the already-stringified text a second time.

export const makeQueries = (sql: Sql) => {
  const columns = sql`id, status, idempotency_key, auto_save_count, version, event_id, values, created_at, updated_at, submitted_at`

  /** The token lookup of every request: the form with its field definitions (jsonb, parsed by the driver). */
  const formByToken = async (token: string): Promise<FormRow | undefined> => {
    const rows = await sql<Array<FormRow>>`
      SELECT id, organisation_id, event_id, type, status, public_token, previous_public_token, token_rotated_at,
             opens_at, closes_at, fields
      FROM form_schemas WHERE public_token = ${token} OR previous_public_token = ${token}
      ORDER BY (public_token = ${token}) DESC LIMIT 1`
    return rows[0]
  }

  const submissionById = async (schemaId: string, id: string): Promise<SubmissionRow | undefined> => {
    const rows = await sql<Array<SubmissionRow>>`
      SELECT ${columns} FROM submissions WHERE id = ${id}::uuid AND schema_id IS NOT DISTINCT FROM ${schemaId}`
    return rows[0]
  }

  const submissionByKey = async (schemaId: string, key: string): Promise<SubmissionRow | undefined> => {
    const rows = await sql<Array<SubmissionRow>>`
      SELECT ${columns} FROM submissions WHERE schema_id = ${schemaId} AND idempotency_key = ${key}`
    return rows[0]
  }

  /** Insert-or-get: the insert wins, or the row already under this key is read. */
  const createOrGet = async (
    schemaId: string,
    eventId: string | null,
    key: string,
    values: Record<string, unknown>
  ): Promise<{ row: SubmissionRow; created: boolean }> => {
    const now = new Date()
    const rows = await sql<Array<SubmissionRow>>`
      INSERT INTO submissions (schema_id, idempotency_key, values, event_id, created_at, updated_at)
      VALUES (${schemaId}, ${key}, ${JSON.stringify(values)}::text::jsonb, ${eventId}, ${now}, ${now})
      ON CONFLICT (schema_id, idempotency_key) DO NOTHING
      RETURNING ${columns}`
    const created = rows[0]
    if (created !== undefined) return { row: created, created: true }
    const existing = await submissionByKey(schemaId, key)
    if (existing === undefined) throw new Error("the conflicting draft vanished")
    return { row: existing, created: false }
  }

  /** The jsonb merge of a save, only while draft; undefined when no draft of this form has that id. */
  const save = async (schemaId: string, id: string, patch: Record<string, unknown>): Promise<SubmissionRow | undefined> => {
    const rows = await sql<Array<SubmissionRow>>`
      UPDATE submissions
      SET values = values || ${JSON.stringify(patch)}::text::jsonb, auto_save_count = auto_save_count + 1,
          version = version + 1, updated_at = ${new Date()}
      WHERE id = ${id}::uuid AND schema_id IS NOT DISTINCT FROM ${schemaId} AND status IS NOT DISTINCT FROM 'draft'
      RETURNING ${columns}`
    return rows[0]
  }

  /** The slugs whose values a submitted submission already holds. */
  const taken = async (schemaId: string, claims: ReadonlyArray<UniqueClaim>): Promise<Array<string>> => {
    if (claims.length === 0) return []
    const rows = await sql<Array<{ field_slug: string }>>`
      SELECT c.slug AS field_slug
      FROM unnest(${claims.map((c) => c.slug)}::text[], ${claims.map((c) => c.normalized)}::text[]) AS c (slug, normalized)
      CROSS JOIN LATERAL (
        SELECT 1 FROM unique_claims u
        WHERE u.schema_id = ${schemaId} AND u.field_slug = c.slug AND u.normalized_value = c.normalized LIMIT 1) AS held`
    return [...new Set(rows.map((r) => r.field_slug))]
  }

  /**
   * Mirror mode only: ours' first limiter, statement for statement, on ours' table of one row per hit under a
   * per-key advisory lock: BEGIN, lock, count, insert, delete old, sweep, COMMIT: 7 round trips.
   */
  const hitLikeOurs = async (key: string, limit: number, windowMs: number): Promise<LimitDecision> =>
    sql.begin(async (tx) => {
      const now = Date.now()
      const since = now - windowMs
      await tx`SELECT pg_advisory_xact_lock(${lockClass}, hashtext(${key}))`
      const [row] = await tx<Array<{ n: number; oldest: number | null }>>`
        SELECT count(*)::int AS n, min(at)::float8 AS oldest FROM rate_limit_hits WHERE key = ${key} AND at > ${since}::bigint`
      const n = row?.n ?? 0
      const allowed = n < limit
      if (allowed) {
        await tx`INSERT INTO rate_limit_hits (key, at, expires_at) VALUES (${key}, ${now}::bigint, ${now + windowMs}::bigint)`
      }
      await tx`DELETE FROM rate_limit_hits WHERE key = ${key} AND at <= ${since}::bigint`
      await tx`DELETE FROM rate_limit_hits WHERE id IN (
        SELECT id FROM rate_limit_hits WHERE expires_at <= ${now}::bigint LIMIT 100 FOR UPDATE SKIP LOCKED)`
      const counts = allowed ? n + 1 : n
      const oldest = row?.oldest ?? (allowed ? now : null)
      const resetMs = oldest === null ? 0 : Math.max(0, oldest + windowMs - now)
      return { allowed, remaining: allowed ? Math.max(0, limit - counts) : 0, resetSeconds: Math.ceil(resetMs / 1000) }
    })

  /** Submit at a version: the conditional update, the unique claims and the outbox row in one transaction. */
  const submit = async (input: {
    readonly schemaId: string
    readonly organisationId: string
    readonly id: string
    readonly version: number
    readonly values: Record<string, unknown>
    readonly claims: ReadonlyArray<UniqueClaim>
    /** Mirror mode: ours' separate `pg_notify` statement. */
    readonly notify?: boolean
  }): Promise<SubmitOutcome> => {
    try {
      return await sql.begin(async (tx): Promise<SubmitOutcome> => {
        const at = new Date()
        const valuesJson = JSON.stringify(input.values)
        const [row] = await tx<Array<SubmissionRow>>`
          UPDATE submissions
          SET status = 'submitted', values = ${valuesJson}::text::jsonb, submitted_at = ${at}, updated_at = ${at},
              version = version + 1
          WHERE id = ${input.id}::uuid AND schema_id IS NOT DISTINCT FROM ${input.schemaId} AND status IS NOT DISTINCT FROM 'draft' AND version = ${input.version}
          RETURNING ${columns}`
        if (row === undefined) throw new Rollback({ _tag: "Moved" })
        if (input.claims.length > 0) {
          const won = await tx<Array<{ field_slug: string }>>`
            INSERT INTO unique_claims (schema_id, field_slug, normalized_value, submission_id)
            SELECT ${input.schemaId}, c.slug, c.value, ${input.id}::uuid
            FROM unnest(${input.claims.map((c) => c.slug)}::text[], ${input.claims.map((c) => c.normalized)}::text[])
              AS c (slug, value)
            ON CONFLICT DO NOTHING
            RETURNING field_slug`
          if (won.length < input.claims.length) {
            const wonSlugs = new Set(won.map((w) => w.field_slug))
            throw new Rollback({ _tag: "Taken", slugs: input.claims.filter((c) => !wonSlugs.has(c.slug)).map((c) => c.slug) })
          }
        }
        const payload = {
          submission_id: input.id,
          schema_id: input.schemaId,
          organisation_id: input.organisationId,
          event_id: row.event_id,
          values: input.values,
          submitted_at: at.toISOString()
        }
        await tx`INSERT INTO outbox (type, payload, available_at, created_at)
          VALUES ('submission.submitted', ${JSON.stringify(payload)}::text::jsonb, ${at}, ${at})`
        if (input.notify === true) await tx`SELECT pg_notify('forms_outbox', '')`
        return { _tag: "Submitted", row }
      })
    } catch (error) {
      if (error instanceof Rollback) return error.outcome
      throw error
    }
  }

  return { formByToken, submissionById, submissionByKey, createOrGet, save, taken, hitLikeOurs, submit }
}

export type Queries = ReturnType<typeof makeQueries>
