/** What must hold in the database after a fault, checked in SQL: nothing lost, nothing duplicated, nothing half-written. */
import type { Sql } from "../support/sql.js"
import { fx } from "../support/paths.js"
import type { Flow } from "./flows.js"

const count = async (sql: Sql, text: string, params: ReadonlyArray<unknown> = []): Promise<number> => {
  const rows = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM (${text}) AS q`, params)
  return rows[0]?.n ?? -1
}

/** Invariants over the whole database: every one must be 0. */
export const invariantViolations = async (sql: Sql): Promise<Record<string, number>> => ({
  "idempotency keys with more than one submission": await count(sql,
    `SELECT schema_id, idempotency_key FROM submissions GROUP BY 1, 2 HAVING count(*) > 1`),
  "submitted submissions without exactly one submission.submitted event": await count(sql,
    `SELECT s.id FROM submissions s WHERE s.status = 'submitted' AND s.schema_id = $1 AND
       (SELECT count(*) FROM outbox o WHERE o.type = 'submission.submitted' AND o.payload->>'submission_id' = s.id::text) <> 1`, [fx.loadSchema]),
  "submission.submitted events of a submission that is not submitted": await count(sql,
    `SELECT o.id FROM outbox o LEFT JOIN submissions s ON s.id::text = o.payload->>'submission_id'
     WHERE o.type = 'submission.submitted' AND (s.id IS NULL OR s.status <> 'submitted')`),
  "unique claims of a submission that is not submitted": await count(sql,
    `SELECT c.submission_id FROM unique_claims c JOIN submissions s ON s.id = c.submission_id WHERE s.status <> 'submitted'`),
  "submitted submissions of the load form without their email claim": await count(sql,
    `SELECT s.id FROM submissions s WHERE s.status = 'submitted' AND s.schema_id = $1 AND NOT EXISTS
       (SELECT 1 FROM unique_claims c WHERE c.submission_id = s.id AND c.field_slug = 'email')`, [fx.loadSchema]),
  "drafts with a submitted_at": await count(sql, `SELECT id FROM submissions WHERE status = 'draft' AND submitted_at IS NOT NULL`),
  "submitted submissions without a submitted_at": await count(sql, `SELECT id FROM submissions WHERE status = 'submitted' AND submitted_at IS NULL`)
})

interface Stored {
  readonly id: string
  readonly key: string
  readonly status: string
  readonly values: Record<string, unknown>
  readonly events: number
}

/** Each flow's promises: acknowledged effects present, retried flows submitted exactly once. */
export const flowViolations = async (sql: Sql, flows: ReadonlyArray<Flow>): Promise<ReadonlyArray<string>> => {
  const rows = await sql.query<Stored & Record<string, unknown>>(
    `SELECT s.id::text AS id, s.idempotency_key AS key, s.status, s.values,
       (SELECT count(*)::int FROM outbox o WHERE o.type = 'submission.submitted' AND o.payload->>'submission_id' = s.id::text) AS events
     FROM submissions s WHERE s.schema_id = $1`, [fx.loadSchema])
  const byKey = new Map(rows.map((r) => [r.key, r]))
  const problems: Array<string> = []
  for (const flow of flows) {
    const stored = byKey.get(flow.key)
    const name = `flow ${flow.key}`
    if (stored === undefined) {
      if (flow.acked.has("create") || flow.retried !== undefined) problems.push(`${name}: acknowledged draft missing`)
      continue
    }
    if (flow.id !== undefined && stored.id !== flow.id) problems.push(`${name}: stored id ${stored.id}, acknowledged ${flow.id}`)
    if (flow.acked.has("save") && (stored.values["note"] !== flow.note || stored.values["shirt"] !== "M")) {
      problems.push(`${name}: acknowledged save missing (${JSON.stringify(stored.values)})`)
    }
    const mustBeSubmitted = flow.acked.has("submit") || flow.retried !== undefined
    if (mustBeSubmitted && stored.status !== "submitted") problems.push(`${name}: acknowledged submit, status ${stored.status}`)
    if (mustBeSubmitted && stored.values["email"] !== flow.email) problems.push(`${name}: submitted without its email`)
    if (stored.status === "submitted" && stored.events !== 1) problems.push(`${name}: ${stored.events} submission.submitted events`)
    if (stored.status === "draft" && stored.events !== 0) problems.push(`${name}: a draft with ${stored.events} events`)
  }
  return problems
}

export const noViolations = (violations: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(violations).filter(([, n]) => n !== 0))
