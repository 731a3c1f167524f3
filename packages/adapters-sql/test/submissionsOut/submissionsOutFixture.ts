/** The conformance fixture of "Submissions out" on PostgreSQL: rows stored with plain SQL, as the other writers store them. */
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { SubmissionsOutFixture } from "@forms/domain/testing"

const randomId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`

export const sqlSubmissionsOutFixture = Layer.effect(SubmissionsOutFixture, Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const orDie = <A, E>(effect: Effect.Effect<A, E>) => Effect.orDie(effect)

  return SubmissionsOutFixture.of({
    newActor: orDie(Effect.gen(function*() {
      const id = randomId("org")
      yield* sql`INSERT INTO organisations (id, name) VALUES (${id}, 'Org')`
      return { organisation_id: id, api_key_id: null }
    })),
    addForm: (organisationId, fields) =>
      orDie(sql.withTransaction(Effect.gen(function*() {
        const id = randomId("form")
        yield* sql`INSERT INTO form_schemas (id, organisation_id, name, type, status, revision)
          VALUES (${id}, ${organisationId}, 'Form', 'volunteer', 'published', 1)`
        const sections = new Map(fields.flatMap((f) => (f.section === undefined ? [] : [[f.section.id, f.section.position] as const])))
        for (const [section, position] of sections) {
          // Section ids as given: they are the form's own names (another form may use the same ones).
          yield* sql`INSERT INTO form_sections (id, schema_id, name, position) VALUES (${section}, ${id}, 'S', ${position})`
        }
        for (const field of fields) {
          yield* sql`INSERT INTO form_fields (id, schema_id, section_id, slug, label, type, position)
            VALUES (${`${id}-${field.slug}`}, ${id}, ${field.section === undefined ? null : field.section.id},
                    ${field.slug}, ${field.slug}, 'text', ${field.position})`
        }
        return id
      }))),
    addSubmission: (input) =>
      orDie(sql.withTransaction(Effect.gen(function*() {
        const updated = new Date(input.updated_at ?? input.created_at)
        const [row] = yield* sql<{ readonly id: string; readonly organisation_id: string }>`
          INSERT INTO submissions (schema_id, idempotency_key, status, values, tags, subject_id, language, created_at, updated_at, submitted_at)
          VALUES (${input.form_id}, ${input.idempotency_key}, ${input.status}, ${JSON.stringify(input.values)}::jsonb,
                  ${JSON.stringify(input.tags ?? [])}::jsonb, ${input.portal === true ? "artist-1" : null}, ${input.language ?? "en"},
                  ${new Date(input.created_at)}::timestamptz, ${updated}::timestamptz,
                  ${input.status === "submitted" ? updated : null}::timestamptz)
          RETURNING id::text AS id, (SELECT organisation_id FROM form_schemas WHERE id = ${input.form_id}) AS organisation_id`
        const id = row!.id
        for (const claim of input.claims ?? []) {
          yield* sql`INSERT INTO unique_claims (schema_id, field_slug, value_digest, submission_id)
            VALUES (${input.form_id}, ${claim.slug}, sha256(convert_to(${claim.value}, 'UTF8')), ${id}::uuid)`
        }
        if (input.contact_key !== undefined) {
          const [contact] = yield* sql<{ readonly id: string }>`INSERT INTO contacts (organisation_id, key)
            VALUES (${row!.organisation_id}, ${input.contact_key})
            ON CONFLICT (organisation_id, key) DO UPDATE SET key = EXCLUDED.key RETURNING id::text AS id`
          yield* sql`UPDATE submissions SET contact_id = ${contact!.id}::uuid WHERE id = ${id}::uuid`
          yield* sql`UPDATE contacts SET tags = forms_contact_tags(id) WHERE id = ${contact!.id}::uuid`
        }
        if (input.event !== undefined) {
          const at = new Date(input.created_at)
          const payload = {
            submission_id: id, schema_id: input.form_id, organisation_id: row!.organisation_id, event_id: null,
            values: input.values, submitted_at: at.toISOString()
          }
          yield* sql`INSERT INTO outbox (type, payload, available_at, created_at, delivered_at, dead_at)
            VALUES ('submission.submitted', ${JSON.stringify(payload)}::jsonb, ${at}::timestamptz, ${at}::timestamptz,
                    ${input.event === "delivered" ? at : null}::timestamptz, ${input.event === "dead" ? at : null}::timestamptz)`
        }
        return id
      }))),
    addEvent: (event) =>
      orDie(Effect.gen(function*() {
        const created = new Date(event.created_at)
        const at = new Date(event.at ?? event.created_at)
        const payload = event.payload ?? { organisation_id: event.organisation_id }
        const [row] = yield* sql<{ readonly id: string }>`
          INSERT INTO outbox (type, payload, attempts, last_error, available_at, created_at, delivered_at, dead_at)
          VALUES ('submission.submitted', ${JSON.stringify(payload)}::jsonb, ${event.state === "dead" ? 10 : 1},
                  ${event.state === "dead" ? "failed" : null}, ${created}::timestamptz, ${created}::timestamptz,
                  ${event.state === "delivered" ? at : null}::timestamptz, ${event.state === "dead" ? at : null}::timestamptz)
          RETURNING id::text AS id`
        yield* sql`UPDATE outbox SET organisation_id = ${event.organisation_id} WHERE id = ${row!.id}::uuid`
        return row!.id
      })),
    claimsOf: (submissionId) =>
      orDie(Effect.map(sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM unique_claims WHERE submission_id = ${submissionId}::uuid`, (rows) => rows[0]?.n ?? 0)),
    exists: (submissionId) =>
      orDie(Effect.map(sql`SELECT 1 FROM submissions WHERE id = ${submissionId}::uuid`, (rows) => rows.length > 0)),
    eventsOf: (submissionId) =>
      orDie(sql<{ readonly id: string; readonly type: string; readonly payload: Record<string, unknown> }>`
        SELECT id::text AS id, type, payload FROM outbox WHERE payload->>'submission_id' = ${submissionId} ORDER BY seq`),
    eventPayload: (eventId) =>
      orDie(Effect.map(sql<{ readonly payload: Record<string, unknown> }>`SELECT payload FROM outbox WHERE id = ${eventId}::uuid`, (rows) => rows[0]?.payload ?? {})),
    audit: (organisationId) =>
      orDie(sql<{ readonly action: string; readonly resource_id: string }>`
        SELECT action, resource_id FROM audit_log WHERE organisation_id = ${organisationId} ORDER BY at, action, resource_id`)
  })
}))
