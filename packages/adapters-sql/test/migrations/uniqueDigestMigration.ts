/**
 * Migration 0006 on a database that holds claims written by the schema of 0005 (the value itself as the
 * key, compared as text): afterwards every one is found by the new keys (numbers by value, phones by
 * digits, the rest as before), whatever spelling asks; the SQL re-keying agrees with the domain's.
 */
import { expect, layer } from "@effect/vitest"
import { PgMigrator } from "@effect/sql-pg"
import type { PgClient } from "@effect/sql-pg"
import { Effect, type Layer } from "effect"
import { SqlClient } from "effect/sql"
import { NodeServices } from "@effect/platform-node"
import { compileRules, type FieldOption, type FormField } from "@forms/domain"
import forms from "../../src/migrations/0001_forms.js"
import submissions from "../../src/migrations/0002_submissions.js"
import portal from "../../src/migrations/0003_portal.js"
import enrichment from "../../src/migrations/0004_enrichment.js"
import schemaChanges from "../../src/migrations/0005_schema_changes.js"
import { Migrations } from "../../src/migrations/Migrations.js"
import { claimDigest } from "../../src/publicForms/claimDigest.js"
import { makeSqlSubmissions } from "../../src/publicForms/SqlSubmissions.js"
import { makeSqlUniqueValues } from "../../src/publicForms/SqlUniqueValues.js"
import { ids } from "../fixtures.js"

/** The migrations as they stood before 0006. */
const upTo0005 = PgMigrator.run({
  loader: PgMigrator.fromRecord({
    "0001_forms": forms,
    "0002_submissions": submissions,
    "0003_portal": portal,
    "0004_enrichment": enrichment,
    "0005_schema_changes": schemaChanges
  }),
  table: Migrations.table
}).pipe(Effect.provide(NodeServices.layer))

const fieldRow = (slug: string, type: string, options: ReadonlyArray<string> | null = null) => ({
  id: `ff-mig-${slug}`,
  section_id: null,
  slug,
  label: slug,
  type,
  is_required: false,
  options,
  validation_rules: null,
  is_unique: true,
  position: 10,
  maps_to: null
})

// The unique fields of the volunteer form beside its email: a number, a phone, a text, a multi-value number.
const extraFields = [
  fieldRow("amount", "numeric"),
  fieldRow("mobile", "phone"),
  fieldRow("nick", "text"),
  fieldRow("sizes", "numeric", ["1", "2", "3"])
]

/**
 * The volunteer form with these fields, written as the tables stood at 0005 (a text revision, global part
 * ids): today's fixture loader writes the layout of the latest migration, which 0005 does not have yet.
 */
const seedAt0005 = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO organisations (id, name) VALUES ('org-mig-0006', 'Migration org')`
  yield* sql`INSERT INTO form_schemas (id, organisation_id, name, type, status, revision)
    VALUES (${ids.volunteer}, 'org-mig-0006', 'Volunteers', 'volunteer', 'published', 'hash-at-0005')`
  for (const field of [fieldRow("email", "email"), ...extraFields]) {
    const options = field.options === null ? null : JSON.stringify(field.options.map((value) => ({ value, label: value, tags: [] })))
    yield* sql`INSERT INTO form_fields (id, schema_id, slug, label, type, is_unique, options, position)
      VALUES (${field.id}, ${ids.volunteer}, ${field.slug}, ${field.label}, ${field.type}, true, ${options}::jsonb, 10)`
  }
})

const formFields: ReadonlyArray<FormField> = [fieldRow("email", "email"), ...extraFields].map((f) => ({
  ...f,
  options: f.options === null ? null : f.options.map((value): FieldOption => ({ value, label: value, tags: [] }))
}))
const validate = compileRules(formFields).relaxed

/** What the code before 0006 stored as `normalized_value` (trimmed text, emails lower-cased, arrays as sorted JSON). */
const oldKey = (slug: string, value: unknown): string => {
  const lower = slug === "email"
  const text = (v: unknown) => {
    const t = typeof v === "string" ? v.trim() : String(v)
    return lower ? t.toLowerCase() : t
  }
  if (!Array.isArray(value)) return text(value)
  const items = value.map(text)
  items.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify(items)
}

const bigExponent = "9".repeat(2_000)
/** [slug, value claimed before 0006, another spelling of the same value asked about after it]. */
const sameValue: ReadonlyArray<readonly [string, unknown, unknown]> = [
  ["amount", "12.0", "1.2e1"],
  ["amount", 13, "013"],
  ["amount", "-1.50", -1.5],
  ["amount", "0.000", -0],
  ["amount", "1e400", "10e399"],
  ["amount", `1e${bigExponent}`, `10e${"9".repeat(1_999)}8`],
  ["amount", "-7e-400", "-0.07e-398"],
  ["amount", ".5", "5e-1"],
  ["amount", "5.", "+5"],
  ["amount", "1200", "1.2E+3"],
  ["amount", 1e21, "1000000000000000000000"],
  ["amount", 0.00012, "1.2e-4"],
  ["mobile", "+31 6 1234 5678", "+31-6-12345678"],
  ["mobile", "(020) 555-0100", "0205550100"],
  ["nick", " Ada ", "Ada"],
  ["email", "Ann@Example.NL ", "ANN@example.nl"],
  ["sizes", ["2", 1], [1, "2"]]
]
/** Values that were never claimed, close to claimed ones. */
const otherValue: ReadonlyArray<readonly [string, unknown]> = [
  ["amount", "12.5"],
  ["amount", "2e400"],
  ["amount", "0.1"],
  ["mobile", "+31 6 1234 5679"],
  ["nick", "ada"],
  ["sizes", ["1", "3"]],
  ["sizes", ["1"]]
]

export const uniqueDigestMigrationScenarios = (
  name: string,
  database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
): void =>
  layer(database, { timeout: "120 seconds", excludeTestServices: true })(name, (it) => {
    it.effect("claims written before 0006 are found afterwards by every spelling of their value", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* upTo0005
        yield* seedAt0005
        let n = 0
        const submitted = (values: Record<string, unknown>, at: string) =>
          Effect.map(
            sql<{ readonly id: string }>`
              INSERT INTO submissions (schema_id, idempotency_key, status, values, created_at, updated_at, submitted_at)
              VALUES (${ids.volunteer}, ${`old-${++n}`}, 'submitted', ${JSON.stringify(values)}::jsonb,
                      ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz)
              RETURNING id`,
            (rows) => rows[0]?.id ?? ""
          )
        const oldClaim = (slug: string, value: unknown, at = "2027-07-01T10:00:00Z") =>
          Effect.gen(function*() {
            const id = yield* submitted({ [slug]: value }, at)
            yield* sql`INSERT INTO unique_claims (schema_id, field_slug, normalized_value, submission_id)
              VALUES (${ids.volunteer}, ${slug}, ${oldKey(slug, value)}, ${id}::uuid)`
            return id
          })
        for (const [slug, value] of sameValue) yield* oldClaim(slug, value)
        // Two values the old key told apart and the new one does not: the earlier submit keeps the claim.
        yield* oldClaim("amount", "7", "2027-07-02T10:00:00Z")
        const earlier = yield* oldClaim("amount", "7.00", "2027-07-01T09:00:00Z")
        // A claim of a field that no longer exists, and one that is no JSON list: both keep their text.
        yield* oldClaim("gone", "12.0")
        yield* oldClaim("amount", "[not json")

        yield* Migrations.run
        const unique = yield* makeSqlUniqueValues
        const claimsOf = (slug: string, value: unknown) => {
          const result = validate({ [slug]: value })
          expect(result.errors).toBeUndefined()
          return result.unique
        }
        for (const [slug, , spelling] of sameValue) {
          expect([slug, spelling, yield* unique.taken(ids.volunteer, claimsOf(slug, spelling))]).toEqual([slug, spelling, [slug]])
        }
        for (const [slug, value] of otherValue) {
          expect([slug, value, yield* unique.taken(ids.volunteer, claimsOf(slug, value))]).toEqual([slug, value, []])
        }
        const sevens = yield* sql<{ readonly submission_id: string }>`
          SELECT submission_id FROM unique_claims WHERE field_slug = 'amount' AND value_digest = decode(${claimDigest("7e0")}, 'hex')`
        expect(sevens.map((row) => row.submission_id)).toEqual([earlier])
        const kept = yield* sql<{ readonly field_slug: string }>`
          SELECT field_slug FROM unique_claims
          WHERE (field_slug, value_digest) IN (('gone', decode(${claimDigest("12.0")}, 'hex')),
                                               ('amount', decode(${claimDigest("[not json")}, 'hex')))
          ORDER BY field_slug`
        expect(kept.map((row) => row.field_slug)).toEqual(["amount", "gone"])
        const columns = yield* sql<{ readonly column_name: string }>`
          SELECT column_name FROM information_schema.columns
          WHERE table_name = 'unique_claims' AND table_schema = current_schema() ORDER BY column_name`
        expect(columns.map((c) => c.column_name)).toEqual(["field_slug", "schema_id", "submission_id", "value_digest"])

        // The primary key holds too: a new submit of a value claimed before 0006, spelled anew, loses.
        const store = yield* makeSqlSubmissions
        const { submission } = yield* store.createOrGet({
          schema_id: ids.volunteer, idempotency_key: "after-0006", event_id: null, subject_id: null, values: {}, language: "en"
        })
        const lost = yield* Effect.flip(store.submit({
          schema_id: ids.volunteer,
          id: submission.id,
          expected_version: submission.version,
          values: { amount: "12" },
          claims: claimsOf("amount", "12"),
          submitted_at: Date.parse("2027-07-03T10:00:00Z"),
          events: []
        }))
        expect(lost).toMatchObject({ _tag: "UniqueTaken", slugs: ["amount"] })
      }))
  })
