/**
 * FormSchemaCache on a real PostgreSQL: the readers keep thin rows while LISTEN is in place, and every
 * change to a schema (status, token, fields, event name) is seen as soon as its NOTIFY arrives.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { FormSchemas, OrganiserForms, SchemaCatalog } from "@forms/domain"
import { loadFixture } from "../../src/fixture/loadFixture.js"
import { SqlOrganiserForms } from "../../src/organiser/forms/SqlOrganiserForms.js"
import { FormSchemaCache } from "../../src/forms/FormSchemaCache.js"
import { SqlFormSchemas } from "../../src/publicForms/SqlFormSchemas.js"
import { SqlSchemaCatalog } from "../../src/forms/SqlSchemaCatalog.js"
import { ids, tokens, validFixture } from "../fixtures.js"
import { isolatedPg, seededPorts, skipReason, testDatabaseUrl, testSchemaName } from "../support.js"

/** Polls `read` until `done` holds (a NOTIFY takes a moment to arrive), for at most 5 seconds. */
const eventually = <A, E, R>(read: Effect.Effect<A, E, R>, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    for (;;) {
      const value = yield* read
      if (done(value)) return value
      yield* Effect.sleep("20 millis")
    }
  }).pipe(Effect.timeout("5 seconds"))

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("FormSchemaCache on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  const schema = testSchemaName()
  const applicationName = `forms-cache-test-${schema}`
  // Fresh port layers over the cache (the shared ones are memoised without it).
  const cached = Layer.mergeAll(Layer.fresh(SqlFormSchemas.layer), Layer.fresh(SqlSchemaCatalog.layer)).pipe(
    Layer.provideMerge(FormSchemaCache.listening({ url, schema, applicationName }))
  )
  layer(cached.pipe(Layer.provideMerge(seededPorts(isolatedPg(url, 5, schema), validFixture()))), {
    timeout: "60 seconds",
    excludeTestServices: true
  })("FormSchemaCache on PostgreSQL", (it) => {
    const byToken = (token: string) => FormSchemas.use((schemas) => schemas.findByToken(token))
    const byId = (id: string) => SchemaCatalog.use((catalog) => catalog.findById(id))

    it.effect("a second read of a token or an id is answered from the cache", () =>
      Effect.gen(function*() {
        const cache = yield* FormSchemaCache
        yield* byToken(tokens.volunteer)
        yield* byId(ids.volunteer)
        const before = cache.stats()
        const [again, sameId] = [yield* byToken(tokens.volunteer), yield* byId(ids.volunteer)]
        expect(cache.stats().hits - before.hits).toBe(2)
        expect([Option.map(again, (s) => s.id), Option.map(sameId, (s) => s.public_token)])
          .toEqual([Option.some(ids.volunteer), Option.some(tokens.volunteer)])
        // Unknown tokens are not kept.
        expect(yield* byToken("no-such-token-0000000001")).toEqual(Option.none())
        expect(yield* byToken("no-such-token-0000000001")).toEqual(Option.none())
        expect(cache.stats().size).toBe(before.size)
      }))

    it.effect("a status change, a rotation, a fixture reload and an event rename are seen once their NOTIFY arrives", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        expect(Option.map(yield* byToken(tokens.volunteer), (s) => s.status)).toEqual(Option.some("published"))
        yield* sql`UPDATE form_schemas SET status = 'archived' WHERE id = ${ids.volunteer}`
        yield* eventually(byToken(tokens.volunteer), (s) => Option.isSome(s) && s.value.status === "archived")
        yield* eventually(byId(ids.volunteer), (s) => Option.isSome(s) && s.value.status === "archived")

        const rotated = "tok-test-cache-rotated-0001"
        yield* Effect.flatMap(OrganiserForms, (forms) =>
          forms.rotateFormToken(undefined, ids.volunteer, rotated, Date.parse("2027-07-02T00:00:00Z"))).pipe(
          Effect.provide(SqlOrganiserForms.layer)
        )
        // A new token is never in the cache: found at once.
        expect(Option.map(yield* byToken(rotated), (s) => s.id)).toEqual(Option.some(ids.volunteer))
        yield* eventually(byToken(tokens.volunteer), (s) => Option.isSome(s) && s.value.previous_public_token === tokens.volunteer)

        // The reload restores the fixture's status, token and fields; one field fewer first.
        const fixture = validFixture()
        const [volunteer, advance] = fixture.form_schemas
        if (volunteer === undefined || advance === undefined) return expect.fail("the fixture has two schemas")
        yield* loadFixture({ ...fixture, form_schemas: [{ ...volunteer, fields: volunteer.fields.slice(1) }, advance] })
        yield* eventually(byId(ids.volunteer), (s) => Option.isSome(s) && s.value.fields.length === volunteer.fields.length - 1)
        yield* loadFixture(validFixture())
        const restored = yield* eventually(byId(ids.volunteer), (s) => Option.isSome(s) && s.value.fields.length === volunteer.fields.length)
        expect(Option.map(restored, (s) => s.status)).toEqual(Option.some("published"))

        yield* sql`UPDATE events SET name = 'Renamed Festival' WHERE id = ${ids.festival}`
        yield* eventually(byId(ids.volunteer), (s) => Option.isSome(s) && s.value.event?.name === "Renamed Festival")

        // A field changed by hand, without a new revision: the notification forgets the cached fields too.
        yield* sql`UPDATE form_fields SET label = 'Relabelled' WHERE schema_id = ${ids.volunteer}`
        yield* eventually(byToken(tokens.volunteer), (s) => Option.isSome(s) && s.value.fields.every((f) => f.label === "Relabelled"))
      }))

    it.effect("while the LISTEN connection is gone nothing is cached; caching resumes after the reconnect", () =>
      Effect.gen(function*() {
        const cache = yield* FormSchemaCache
        const sql = yield* SqlClient.SqlClient
        yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = ${applicationName} AND query ILIKE 'LISTEN%'`
        yield* eventually(Effect.sync(() => cache.generation()), (g) => g === null)
        yield* byToken(tokens.advance)
        const offline = cache.stats().hits
        yield* byToken(tokens.advance)
        expect(cache.stats().hits).toBe(offline)
        // The listener reconnects (250 ms backoff), then keeps rows again.
        yield* eventually(Effect.sync(() => cache.generation()), (g) => g !== null)
        yield* byToken(tokens.advance)
        yield* byToken(tokens.advance)
        expect(cache.stats().hits).toBe(offline + 1)
      }))
  })
}
