/**
 * Compiled rules on a real PostgreSQL follow a field edited in place (no new revision): once the schema-change
 * NOTIFY has reached the process, the next save or submit is checked by the new regex, options and required.
 */
import { InMemoryFileStorage } from "@forms/domain/memory"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import {
  ArtistPortal,
  ArtistPortalLive,
  clientAt,
  FormSchemas,
  FormsConfig,
  InProcessSignal,
  PublicForms,
  PublicFormsLive,
  Refused
} from "@forms/domain"
import { FormSchemaCache } from "../../src/forms/FormSchemaCache.js"
import { SqlFormSchemas } from "../../src/publicForms/SqlFormSchemas.js"
import { tokens, validFixture } from "../fixtures.js"
import { isolatedPg, seededPortalPorts, skipReason, testDatabaseUrl, testSchemaName } from "../support.js"

const values = (entries: Record<string, unknown>) => Object.assign(Object.create(null) as Record<string, unknown>, entries)
const ip = clientAt("203.0.113.50")

/** The refusal's reason (a refusal after the limit step carries its limit state around it). */
const reasonOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flip(effect).pipe(Effect.map((error) => (error instanceof Refused ? error.reason : error)))

/** Polls until the process reads `slug` of the volunteer form as `done` says (the NOTIFY takes a moment). */
const fieldSeen = (slug: string, done: (field: Record<string, unknown>) => boolean) =>
  Effect.gen(function*() {
    const schemas = yield* FormSchemas
    for (;;) {
      const read = yield* schemas.findByToken(tokens.volunteer)
      const field = Option.isSome(read) ? read.value.fields.find((f) => f.slug === slug) : undefined
      if (field !== undefined && done({ ...field })) return
      yield* Effect.sleep("20 millis")
    }
  }).pipe(Effect.timeout("5 seconds"))

if (testDatabaseUrl === undefined) {
  console.warn(skipReason)
  describe("compiled rules after a field edit on PostgreSQL", () => it.skip(skipReason, () => {}))
} else {
  const url = testDatabaseUrl
  const schema = testSchemaName()
  // The FormSchemas port over the LISTEN-kept cache, as a server with DATABASE_URL has it.
  const cachedSchemas = Layer.fresh(SqlFormSchemas.layer).pipe(
    Layer.provideMerge(FormSchemaCache.listening({ url, schema, applicationName: `forms-rules-test-${schema}` }))
  )
  const ports = cachedSchemas.pipe(
    Layer.provideMerge(seededPortalPorts(isolatedPg(url, 5, schema), validFixture(), InProcessSignal.layer))
  )
  const useCases = Layer.mergeAll(PublicFormsLive.layer, ArtistPortalLive.layer).pipe(
    Layer.provideMerge(FormsConfig.layer({ submitLimitPerHour: 1_000_000 })),
    Layer.provideMerge(InMemoryFileStorage.layer),
    Layer.provideMerge(ports)
  )
  layer(useCases, { timeout: "60 seconds", excludeTestServices: true })("compiled rules after a field edit on PostgreSQL", (it) => {
    it.effect("a regex, options and required changed by SQL apply to the next save and submit", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const forms = yield* PublicForms
        const { submission } = (yield* forms.createDraft(tokens.volunteer, { idempotency_key: "rules-fresh-0000001", values: values({}) }, ip)).value
        const save = (entries: Record<string, unknown>) => forms.save(tokens.volunteer, submission.id, values(entries), ip)
        yield* save({ name: "Ada" })
        expect(yield* reasonOf(save({ shirt: "L" }))).toMatchObject({ _tag: "ValidationFailed", fields: { shirt: [{ rule: "in" }] } })

        yield* sql`UPDATE form_fields SET validation_rules = '{"regex": "^[A-Z]+$"}'::jsonb WHERE slug = 'name'`
        yield* sql`UPDATE form_fields SET options = options || '[{"value": "L", "label": "Large", "tags": []}]'::jsonb
          WHERE slug = 'shirt'`
        yield* sql`UPDATE form_fields SET is_required = true WHERE slug = 'age'`
        yield* fieldSeen("name", (f) => JSON.stringify(f["validation_rules"]) === `{"regex":"^[A-Z]+$"}`)
        yield* fieldSeen("shirt", (f) => Array.isArray(f["options"]) && f["options"].length === 3)
        yield* fieldSeen("age", (f) => f["is_required"] === true)

        expect(yield* reasonOf(save({ name: "Ada" }))).toMatchObject({ _tag: "ValidationFailed", fields: { name: [{ rule: "regex" }] } })
        expect({ ...(yield* save({ name: "ADA", shirt: "L" })).value.values }).toMatchObject({ name: "ADA", shirt: "L" })
        const missing = yield* reasonOf(forms.submit(tokens.volunteer, submission.id, values({ email: "rules@example.org" }), ip))
        expect(missing).toMatchObject({ _tag: "ValidationFailed", fields: { age: [{ rule: "required" }] } })
      }))

    it.effect("the portal checks a section by its fields as read now", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const portal = yield* ArtistPortal
        const submit = () => portal.submitSection(tokens.portal, "as-test-travel", values({}), ip)
        yield* submit()
        yield* sql`UPDATE form_fields SET is_required = true WHERE slug = 'arrival'`
        expect(yield* reasonOf(submit())).toMatchObject({ _tag: "ValidationFailed", fields: { arrival: [{ rule: "required" }] } })
      }))
  })
}
