/**
 * The reference's event delivery (CONTRACT §6): the outbox consumed in batches of up to 100 events, one
 * transaction per batch with a few set-based statements whatever its size:
 *
 *   claim (FOR UPDATE SKIP LOCKED, so two processes never take one event) · the batch's forms ·
 *   contacts upsert · submissions' tags and contact (locked in id order) · contacts locked in id order ·
 *   contacts' tags recomputed + the batch marked delivered.
 *
 * The contacts' tags are recomputed by a statement that starts after their locks were taken, so it sees
 * every committed change (as ours' migration 4 does). At least once: a crash rolls the batch back and the
 * events stay due. A failed batch counts an attempt for each of its events and retries them after
 * 1 s · 2^(n−1) (capped at 5 minutes, minus up to 20 % jitter); the 10th failure parks an event dead.
 */
import type { Sql, TransactionSql } from "postgres"
import { type EnrichmentForm, identityKey, submissionTags } from "./enrichment.js"

export const batchSize = 100
const pollMs = 2_000
const maxAttempts = 10

interface Claimed {
  readonly id: string
  readonly type: string
  readonly payload: {
    readonly submission_id?: string
    readonly schema_id?: string
    readonly organisation_id?: string
    readonly values?: Record<string, unknown>
  }
}

interface Work {
  readonly submission_id: string
  readonly organisation_id: string
  readonly key: string | null
  readonly tags: ReadonlyArray<string>
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const fail = (sql: Sql | TransactionSql, ids: ReadonlyArray<string>, error: string) => sql`
  UPDATE outbox SET attempts = attempts + 1, last_error = ${error.slice(0, 500)},
    dead_at = CASE WHEN attempts + 1 >= ${maxAttempts} THEN now() END,
    available_at = now() + LEAST(1000 * power(2, attempts), 300000) * (0.8 + random() * 0.2) * interval '1 millisecond'
  WHERE id = ANY(${ids}::uuid[]) AND delivered_at IS NULL AND dead_at IS NULL`

/** One batch: the number of events claimed (delivered or failed); their ids go to `claimed` as soon as claimed. */
export const deliverBatch = (sql: Sql, claimed: Array<string> = []): Promise<number> =>
  sql.begin(async (tx) => {
    const events = await tx<Array<Claimed>>`
      SELECT id, type, payload FROM outbox
      WHERE delivered_at IS NULL AND dead_at IS NULL AND available_at <= now()
      ORDER BY available_at, seq LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`
    if (events.length === 0) return 0
    for (const event of events) claimed.push(event.id)
    const submitted = events.filter((e) => e.type === "submission.submitted")
    const schemaIds = [...new Set(submitted.map((e) => e.payload.schema_id ?? ""))]
    const forms = new Map<string, EnrichmentForm>()
    if (schemaIds.length > 0) {
      const rows = await tx<Array<EnrichmentForm & { id: string }>>`
        SELECT id, tags, fields FROM form_schemas WHERE id = ANY(${schemaIds})`
      for (const row of rows) forms.set(row.id, row)
    }
    // Per submission, the last event of the batch wins (a redelivered event writes the same again).
    const work = new Map<string, Work>()
    const failed: Array<string> = []
    for (const event of submitted) {
      const { submission_id: id, schema_id: schemaId, organisation_id: organisation, values } = event.payload
      const form = forms.get(schemaId ?? "")
      if (id === undefined || !uuidPattern.test(id) || organisation === undefined || values === undefined || form === undefined) {
        failed.push(event.id)
        continue
      }
      work.set(id, { submission_id: id, organisation_id: organisation, key: identityKey(form, values), tags: submissionTags(form, values) })
    }
    const items = [...work.values()]
    const keyed = items.filter((w) => w.key !== null)
    if (keyed.length > 0) {
      await tx`
        INSERT INTO contacts (organisation_id, key)
        SELECT DISTINCT o, k FROM unnest(${keyed.map((w) => w.organisation_id)}::text[], ${keyed.map((w) => w.key as string)}::text[]) AS x (o, k)
        ORDER BY o, k
        ON CONFLICT (organisation_id, key) DO NOTHING`
    }
    let contacts: Array<string> = []
    if (items.length > 0) {
      const linked = await tx<Array<{ contact: string | null; previous: string | null }>>`
        WITH x AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(items)}::text::jsonb)
            AS x (submission_id uuid, organisation_id text, key text, tags jsonb)
        ), locked AS (
          SELECT s.id, s.contact_id AS previous FROM submissions s
          WHERE s.id IN (SELECT submission_id FROM x) ORDER BY s.id FOR UPDATE
        )
        UPDATE submissions s SET tags = x.tags, contact_id = COALESCE(c.id, l.previous)
        FROM x JOIN locked l ON l.id = x.submission_id
          LEFT JOIN contacts c ON c.organisation_id = x.organisation_id AND c.key = x.key
        WHERE s.id = x.submission_id
        RETURNING s.contact_id::text AS contact, l.previous::text AS previous`
      contacts = [...new Set(linked.flatMap((r) => [r.contact, r.previous]).filter((c): c is string => c !== null))]
    }
    if (contacts.length > 0) {
      await tx`SELECT 1 FROM contacts WHERE id = ANY(${contacts}::uuid[]) ORDER BY id FOR UPDATE`
    }
    const delivered = events.filter((e) => !failed.includes(e.id)).map((e) => e.id)
    await tx`
      WITH delivered AS (
        UPDATE outbox SET delivered_at = now(), attempts = attempts + 1 WHERE id = ANY(${delivered}::uuid[])
      )
      UPDATE contacts c SET tags = (
        SELECT COALESCE(jsonb_agg(u.tag ORDER BY u.tag COLLATE "C"), '[]'::jsonb)
        FROM (SELECT DISTINCT e.tag FROM submissions s CROSS JOIN LATERAL jsonb_array_elements_text(
                CASE WHEN jsonb_typeof(s.tags) = 'array' THEN s.tags ELSE '[]'::jsonb END) AS e (tag)
              WHERE s.contact_id = c.id) AS u)
      WHERE c.id = ANY(${contacts}::uuid[])`
    if (failed.length > 0) await fail(tx, failed, "tag-sync: the event's submission or form cannot be found")
    return events.length
  })

/**
 * Runs batches while they come back full, else waits for `wake()` (a submit of this process) or the poll
 * interval (events of other processes). `stop()` ends the loop after the batch in flight.
 */
export const startOutboxConsumer = (sql: Sql, onError: (error: unknown) => void) => {
  let running = true
  let pending = false
  let waiting: (() => void) | undefined
  const wake = () => {
    pending = true
    waiting?.()
  }
  /** The batch rolled back: an attempt counted for each event it had claimed (still undelivered). */
  const recordFailure = async (ids: ReadonlyArray<string>, error: unknown) => {
    onError(error)
    if (ids.length === 0) return
    await fail(sql, ids, `delivery: ${error instanceof Error ? error.message : String(error)}`).catch(onError)
  }
  const done = (async () => {
    while (running) {
      pending = false
      let claimed = 0
      const ids: Array<string> = []
      try {
        claimed = await deliverBatch(sql, ids)
      } catch (error) {
        await recordFailure(ids, error)
      }
      if (claimed === batchSize || !running) continue
      if (pending) continue
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs)
        waiting = () => {
          clearTimeout(timer)
          resolve()
        }
      })
      waiting = undefined
    }
  })()
  return {
    wake,
    stop: async () => {
      running = false
      waiting?.()
      await done
    }
  }
}
