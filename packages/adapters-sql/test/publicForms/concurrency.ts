/** Races through the SQL ports and the real use cases (live clock): the guarantees must hold across connections. */
import { describe, expect, type Vitest } from "@effect/vitest"
import { Effect, Exit, Layer } from "effect"
import type { PgClient } from "@effect/sql-pg"
import type { SqlClient } from "effect/sql"
import { clientAt, FormsConfig, PublicForms, PublicFormsLive, RateLimiter, Submissions } from "@forms/domain"
import { InMemoryFileStorage } from "@forms/domain/memory"
import type { Ports } from "@forms/domain/testing"
import { SqlClient as Sql } from "effect/sql"
import { ids, tokens, validFixture } from "../fixtures.js"
import { seededPorts } from "../support.js"
import { sweepEvery } from "../../src/limits/SqlRateLimiter.js"

const unbounded = { concurrency: "unbounded" } as const
/** PGlite queues every statement on one connection: generous, for a loaded CI machine. */
const raceTimeout = 60_000
const run = Math.random().toString(36).slice(2, 10)
let counter = 0
const fresh = (prefix: string): string => `${prefix}-${run}-${String(++counter).padStart(5, "0")}-padding`

const values = (entries: Record<string, unknown>) => Object.assign(Object.create(null) as Record<string, unknown>, entries)

export type RaceServices = Ports | PublicForms | SqlClient.SqlClient

/** The ports over `database` seeded with the test fixture, and the PublicForms use cases on top (limit raised). */
export const raceLayer = <E>(database: Layer.Layer<SqlClient.SqlClient | PgClient.PgClient, E>) =>
  PublicFormsLive.layer.pipe(
    Layer.provideMerge(FormsConfig.layer({ submitLimitPerHour: 1_000_000 })),
    Layer.provideMerge(InMemoryFileStorage.layer),
    Layer.provideMerge(seededPorts(database, validFixture()))
  )

const count = (query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<{ readonly n: number }>, unknown>) =>
  Effect.flatMap(Sql.SqlClient, (sql) => Effect.map(Effect.orDie(query(sql)), (rows) => rows[0]?.n ?? -1))

export const concurrencyScenarios = (it: Vitest.MethodsNonLive<RaceServices>): void => {
  describe("races", () => {
    it.effect("50 parallel creates with one key store one row; all answer it, one saw it created", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const key = fresh("race-create")
        const draft = { schema_id: ids.volunteer, idempotency_key: key, event_id: ids.festival, subject_id: null, values: values({}), language: "en" }
        const results = yield* Effect.all(Array.from({ length: 50 }, () => submissions.createOrGet(draft)), unbounded)
        expect(results.filter((r) => r.created).length).toBe(1)
        expect(new Set(results.map((r) => r.submission.id)).size).toBe(1)
        expect(yield* count((sql) => sql`SELECT count(*)::int AS n FROM submissions WHERE idempotency_key = ${key}`)).toBe(1)
      }), raceTimeout)

    it.effect("50 parallel submits of one draft: one success, one outbox row, the others AlreadySubmitted", () =>
      Effect.gen(function*() {
        const submissions = yield* Submissions
        const marker = fresh("race-submit")
        const { submission } = yield* submissions.createOrGet({
          schema_id: ids.volunteer, idempotency_key: marker, event_id: ids.festival, subject_id: null, values: values({}), language: "en"
        })
        const command = {
          schema_id: ids.volunteer,
          id: submission.id,
          expected_version: submission.version,
          values: values({ name: "Ada" }),
          claims: [],
          submitted_at: Date.now(),
          events: [{ type: "submission.submitted" as const, payload: { marker } }]
        }
        const exits = yield* Effect.all(Array.from({ length: 50 }, () => Effect.exit(submissions.submit(command))), unbounded)
        expect(exits.filter(Exit.isSuccess).length).toBe(1)
        const failures = exits.flatMap((exit) => (Exit.isFailure(exit) ? [JSON.stringify(exit.cause)] : []))
        expect(failures.every((f) => f.includes("AlreadySubmitted"))).toBe(true)
        expect(yield* count((sql) => sql`SELECT count(*)::int AS n FROM outbox WHERE payload->>'marker' = ${marker}`)).toBe(1)
      }), raceTimeout)

    it.effect("50 drafts submit one email in different letter case: exactly one succeeds, the rest fail on unique", () =>
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const email = `${fresh("racer")}@example.org`
        const variants = Array.from({ length: 50 }, (_, i) =>
          [...email].map((c, j) => ((i >> (j % 6)) & 1 ? c.toUpperCase() : c)).join(""))
        const drafts = yield* Effect.all(
          variants.map((_, i) =>
            forms.createDraft(tokens.volunteer, { idempotency_key: fresh(`race-unique-${i}`) }, clientAt(`10.0.0.${i}`))),
          unbounded
        )
        const exits = yield* Effect.all(
          drafts.map(({ value: { submission } }, i) =>
            Effect.exit(forms.submit(tokens.volunteer, submission.id, values({ email: variants[i], name: "Racer" }), clientAt(`10.0.0.${i}`)))),
          unbounded
        )
        expect(exits.filter(Exit.isSuccess).length).toBe(1)
        for (const exit of exits) {
          if (Exit.isFailure(exit)) expect(JSON.stringify(exit.cause)).toContain("unique")
        }
        expect(yield* count((sql) =>
          sql`SELECT count(*)::int AS n FROM unique_claims
            WHERE schema_id = ${ids.volunteer} AND value_digest = sha256(convert_to(${email.toLowerCase()}, 'UTF8'))`
        )).toBe(1)
      }), raceTimeout)

    it.effect("100 saves race one submit: saves after it are refused, the stored values are the validated ones", () =>
      Effect.gen(function*() {
        const forms = yield* PublicForms
        const client = clientAt("10.1.0.1")
        const { value: { submission } } = yield* forms.createDraft(tokens.volunteer, {
          idempotency_key: fresh("race-save"),
          values: values({ email: `${fresh("saver")}@example.org`, name: "Start" })
        }, client)
        // Saves spread over ~400 ms, the submit starting among them, so some land before it and some after.
        const saves = Array.from({ length: 100 }, (_, i) =>
          Effect.exit(forms.save(tokens.volunteer, submission.id, values({ name: `Name ${i}`, shirt: i % 2 === 0 ? "S" : "M" }), client))
            .pipe(Effect.delay(i * 4)))
        const submit = Effect.exit(forms.submit(tokens.volunteer, submission.id, values({}), client)).pipe(Effect.delay(100))
        const [submitted, ...saved] = yield* Effect.all([submit, ...saves], unbounded)
        if (submitted === undefined || !Exit.isSuccess(submitted)) return expect.fail(`submit failed: ${JSON.stringify(submitted)}`)
        const done = submitted.value.value
        const succeeded = saved.flatMap((exit) => (Exit.isSuccess(exit) ? [exit.value.value] : []))
        for (const exit of saved) if (Exit.isFailure(exit)) expect(JSON.stringify(exit.cause)).toContain("AlreadySubmitted")
        // Every save that committed did so before the submit's version; none after it.
        for (const s of succeeded) expect(s.version).toBeLessThan(done.version)
        const stored = yield* Effect.flatMap(Submissions, (s) => s.findInSchema(ids.volunteer, submission.id))
        const row = stored._tag === "Some" ? stored.value : undefined
        expect(row?.status).toBe("submitted")
        expect(row?.auto_save_count).toBe(succeeded.length)
        expect(row?.values).toEqual(done.values)
        expect(row?.version).toBe(done.version)
      }), raceTimeout)

    it.effect("50 parallel limiter hits on one key with limit 10: exactly 10 pass", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const key = fresh("race-limit")
        const decisions = yield* Effect.all(Array.from({ length: 50 }, () => limiter.hit(key, 10, 60_000)), unbounded)
        expect(decisions.filter((d) => d.allowed).length).toBe(10)
        expect(decisions.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.reset_ms > 0)).toBe(true)
        expect([...decisions.filter((d) => d.allowed).map((d) => d.remaining)].sort((a, b) => a - b)).toEqual(
          [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
        )
      }), raceTimeout)

    it.effect("a key whose window is empty is deleted within the next sweepEvery hits; a live key stays", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter
        const gone = fresh("sweep-gone")
        const live = fresh("sweep-live")
        yield* limiter.hit(gone, 5, 1)
        yield* Effect.sleep("20 millis")
        const decisions = yield* Effect.forEach(Array.from({ length: sweepEvery }), () => limiter.hit(live, 3, 60_000))
        expect(decisions.filter((d) => d.allowed).length).toBe(3)
        const rows = (key: string) => count((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM rate_limit_windows WHERE key = ${key}`)
        expect(yield* rows(gone)).toBe(0)
        expect(yield* rows(live)).toBe(1)
        // Refused hits are not stored: the live key holds its three counted ones.
        const held = yield* count((sql) => sql<{ n: number }>`SELECT cardinality(hits)::int AS n FROM rate_limit_windows WHERE key = ${live}`)
        expect(held).toBe(3)
      }), raceTimeout)
  })
}
