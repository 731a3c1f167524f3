/**
 * The statements of the hot path keep to the primary key in the generic plan that PostgreSQL caches for a
 * prepared statement (issue 23, bench/RESULTS.md session 5): planned on a young, small table, the plans of
 * `… WHERE id = $1 AND schema_id = $2` used an index on `schema_id` and then read a whole form's rows on every
 * call. Each port call runs inside a transaction with `plan_cache_mode = force_generic_plan`, so its statement
 * is prepared on that connection; `EXPLAIN EXECUTE` of it (NULL arguments: a generic plan ignores them) must
 * name the primary key and no other index of the table.
 */
import { expect, layer } from "@effect/vitest"
import type { PgClient } from "@effect/sql-pg"
import { Effect, type Layer } from "effect"
import { SqlClient } from "effect/sql"
import { RateLimiter, Submissions, UniqueValues } from "@forms/domain"
import { ids, validFixture } from "../fixtures.js"
import { seededPorts } from "../support.js"

const unknownId = "00000000-0000-4000-8000-0000000000aa"

/** The generic plan of the prepared statement whose text contains `marker` (prepared by `call` just before). */
const genericPlanOf = (marker: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const prepared = yield* sql<{ readonly name: string; readonly params: number }>`
      SELECT name, cardinality(parameter_types) AS params FROM pg_prepared_statements
      WHERE strpos(regexp_replace(statement, '\\s+', ' ', 'g'), ${marker}) > 0`
    expect(prepared.length, `one prepared statement containing ${marker}`).toBe(1)
    const [{ name, params }] = prepared as [{ readonly name: string; readonly params: number }]
    const args = Array.from({ length: params }, () => "NULL").join(", ")
    const plan = yield* sql.unsafe<{ readonly "QUERY PLAN": string }>(`EXPLAIN EXECUTE ${name}(${args})`)
    return plan.map((row) => row["QUERY PLAN"]).join("\n")
  })

const generic = <A, E, R>(call: Effect.Effect<A, E, R>, marker: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SET LOCAL plan_cache_mode = force_generic_plan`
      yield* Effect.ignore(call)
      return yield* genericPlanOf(marker)
    }))
  })

export const genericPlanScenarios = (
  name: string,
  database: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, unknown>
): void =>
  layer(seededPorts(database, validFixture()), { timeout: "60 seconds", excludeTestServices: true })(name, (it) => {
    it.effect("a submission read by id, in its form: the primary key", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const plan = yield* generic(submissions.findInSchema(ids.volunteer, unknownId), "FROM submissions WHERE id =")
        expect(plan).toContain("submissions_pkey")
        expect(plan).not.toMatch(/submissions_(page|draft_age|idempotency|contact)/)
      }))

    it.effect("the save's update: the primary key", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const plan = yield* generic(submissions.save(ids.volunteer, unknownId, { city: "Gent" }), "UPDATE submissions SET values = values ||")
        expect(plan).toContain("submissions_pkey")
        expect(plan).not.toMatch(/submissions_(page|draft_age|idempotency|contact)/)
      }))

    it.effect("the submit without places (one statement): the primary key", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const plan = yield* generic(submissions.submit({
          schema_id: ids.volunteer, id: unknownId, expected_version: 1, values: {}, claims: [], submitted_at: Date.now(), events: []
        }), "WITH updated AS (UPDATE submissions")
        expect(plan).toContain("submissions_pkey")
        expect(plan).not.toMatch(/submissions_(page|draft_age|idempotency|contact)/)
      }))

    it.effect("the write limit's check that the submission exists: the primary key", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const plan = yield* generic(
          limiter.hitForSubmission("plan-key", 10, 60_000, { schema_id: ids.volunteer, id: unknownId }),
          "WHERE EXISTS (SELECT 1 FROM submissions s"
        )
        expect(plan).toContain("submissions_pkey")
        expect(plan).not.toMatch(/submissions_(page|draft_age|idempotency|contact)/)
      }))

    it.effect("the unique check: a primary-key probe per value asked about, never a scan of the form's claims", () =>
      Effect.gen(function*() {
        const unique = yield* UniqueValues
        const plan = yield* generic(unique.taken(ids.volunteer, [{ slug: "email", normalized: "ann@example.org" }]), "FROM unique_claims u")
        expect(plan).toMatch(/Index (Only )?Scan using unique_claims_pkey/)
        expect(plan).toContain("Nested Loop")
        expect(plan).not.toMatch(/Bitmap|Hash/)
      }))
  })
