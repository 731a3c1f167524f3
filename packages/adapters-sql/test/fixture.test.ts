import { assert, describe, expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { FormSchemas, OrganiserForms } from "@forms/domain"
import { loadFixture } from "../src/fixture/loadFixture.js"
import { hashPortalToken } from "../src/fixture/formRevision.js"
import { setPortalToken } from "../src/fixture/tokenAdmin.js"
import { SqlOrganiserForms } from "../src/organiser/forms/SqlOrganiserForms.js"
import { makeSqlSchemaCatalog } from "../src/forms/SqlSchemaCatalog.js"
import { brokenFixture, ids, tokens, validFixture } from "./fixtures.js"
import { embeddedPorts } from "./support.js"

const tables = [
  "organisations", "events", "event_sections", "time_slots", "form_schemas", "form_sections", "form_fields",
  "master_artists", "engagements", "advance_sections"
] as const

const counts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const out: Record<string, number> = {}
  for (const table of tables) {
    const [row] = yield* sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM ${sql(table)}`
    out[table] = row?.n ?? -1
  }
  return out
})

const revisions = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ readonly id: string; readonly revision: number }>`SELECT id, revision FROM form_schemas ORDER BY id`
})

layer(embeddedPorts, { timeout: "60 seconds" })("loadFixture on embedded PostgreSQL", (it) => {
  it.effect("a broken fixture is refused with every problem named, and nothing is written", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(loadFixture(brokenFixture()))
      assert.strictEqual(error._tag, "FixtureRejected")
      if (error._tag !== "FixtureRejected") return
      const text = error.problems.join("\n")
      expect(text).toContain(`event "ev-test-orphan": organisation_id "org-missing" is not an organisation`)
      expect(text).toMatch(/ff-test-bad-slug.*slug/)
      expect(text).toMatch(/regex "\(\[a-z" does not compile/)
      expect(text).toContain("use the same token")
      expect(text).toContain(`time slot "ts-test-bad": date "2027-02-30" is not a calendar date`)
      expect(error.problems.length).toBe(5)
      expect(error.message).toContain("5 problems")
      expect(Object.values(yield* counts).every((n) => n === 0)).toBe(true)
    }))

  it.effect("a valid fixture loads; loading it again changes nothing (same rows, same revisions)", () =>
    Effect.gen(function*() {
      const first = yield* loadFixture(validFixture())
      expect(first.changed).toBeGreaterThan(0)
      const rowsAfterFirst = yield* counts
      expect(rowsAfterFirst).toEqual({
        organisations: 1, events: 2, event_sections: 2, time_slots: 2, form_schemas: 2, form_sections: 3,
        form_fields: 5, master_artists: 1, engagements: 1, advance_sections: 1
      })
      const revisionsAfterFirst = yield* revisions
      const second = yield* loadFixture(validFixture())
      expect(second.changed).toBe(0)
      expect(yield* counts).toEqual(rowsAfterFirst)
      expect(yield* revisions).toEqual(revisionsAfterFirst)
    }))

  it.effect("findByToken answers the stored schema in one piece: event, ordered sections and fields, epoch ms", () =>
    Effect.gen(function*() {
      const schemas = yield* FormSchemas
      const found = yield* schemas.findByToken(tokens.volunteer)
      assert.isTrue(Option.isSome(found))
      if (Option.isNone(found)) return
      const schema = found.value
      expect(schema.event).toEqual({ id: ids.festival, name: "Test Festival" })
      expect(schema.token_rotated_at).toBe(Date.parse("2027-06-30T12:00:00Z"))
      expect([schema.opens_at, schema.closes_at]).toEqual([null, Date.parse("2027-12-31T00:00:00Z")])
      expect(schema.sections.map((s) => s.id)).toEqual(["fs-test-s1", "fs-test-s2"])
      expect(schema.fields.map((f) => f.slug)).toEqual(["email", "name", "shirt", "age"])
      expect(schema.fields.find((f) => f.slug === "shirt")?.options).toEqual([
        { value: "S", label: "S", tags: [] },
        { value: "M", label: "Medium", tags: ["m"] }
      ])
      expect(schema.fields.find((f) => f.slug === "age")?.validation_rules).toEqual({ min: 16, max: 99 })
      expect(schema.tags).toEqual(["volunteer"])
      expect(schema.revision).toBe(1)
      const byPrevious = yield* schemas.findByToken(tokens.previous)
      expect(Option.map(byPrevious, (s) => s.id)).toEqual(Option.some(ids.volunteer))
      expect(yield* schemas.findByToken("no-such-token-000000")).toEqual(Option.none())
      const advance = yield* schemas.findByToken(tokens.advance)
      expect(Option.map(advance, (s) => s.event)).toEqual(Option.some(null))
    }))

  it.effect("a changed field changes the revision; a removed field is removed, at once for both schema readers", () =>
    Effect.gen(function*() {
      const schemas = yield* FormSchemas
      const catalog = yield* makeSqlSchemaCatalog
      // The readers cache a revision's fields: a read before the reload must not hide the change after it.
      const fieldCounts = Effect.all([
        Effect.map(schemas.findByToken(tokens.volunteer), Option.map((s) => s.fields.length)),
        Effect.map(catalog.findById(ids.volunteer), Option.map((s) => s.fields.length))
      ])
      const before = yield* revisions
      const fixture = validFixture()
      const [volunteer, advance] = fixture.form_schemas
      if (volunteer === undefined || advance === undefined) return
      const all = volunteer.fields.length
      expect(yield* fieldCounts).toEqual([Option.some(all), Option.some(all)])
      yield* loadFixture({ ...fixture, form_schemas: [{ ...volunteer, fields: volunteer.fields.slice(1) }, advance] })
      const after = yield* revisions
      // A changing load adds 1; an unchanged schema keeps its revision.
      expect(after.find((r) => r.id === ids.volunteer)?.revision).toBe((before.find((r) => r.id === ids.volunteer)?.revision ?? 0) + 1)
      expect(after.find((r) => r.id === ids.advance)?.revision).toBe(before.find((r) => r.id === ids.advance)?.revision)
      expect((yield* counts).form_fields).toBe(4)
      expect(yield* fieldCounts).toEqual([Option.some(all - 1), Option.some(all - 1)])
      yield* loadFixture(validFixture())
      // Back to the first definition is a change too: revisions never go back.
      expect(yield* revisions).toEqual(before.map((r) => (r.id === ids.volunteer ? { ...r, revision: r.revision + 2 } : r)))
      expect(yield* fieldCounts).toEqual([Option.some(all), Option.some(all)])
      yield* loadFixture(validFixture())
      expect((yield* revisions).find((r) => r.id === ids.volunteer)?.revision).toBe((before.find((r) => r.id === ids.volunteer)?.revision ?? 0) + 2)
    }))

  it.effect("a rotated token survives reloading the fixture; the old one becomes the previous token", () =>
    Effect.gen(function*() {
      const fresh = "tok-test-rotated-0000000001"
      const at = Date.parse("2027-07-02T00:00:00Z")
      const forms = yield* OrganiserForms
      yield* forms.rotateFormToken(undefined, ids.volunteer, fresh, at)
      yield* loadFixture(validFixture())
      const schemas = yield* FormSchemas
      const found = yield* schemas.findByToken(fresh)
      expect(Option.map(found, (s) => [s.public_token, s.previous_public_token, s.token_rotated_at])).toEqual(
        Option.some([fresh, tokens.volunteer, at])
      )
      const unknown = yield* Effect.flip(forms.rotateFormToken(undefined, "fs-nope", "tok-test-unused-000000001", at))
      expect(unknown._tag).toBe("FormNotFound")
    }).pipe(Effect.provide(SqlOrganiserForms.layer)))

  it.effect("portal tokens are stored only as SHA-256 hashes; a CLI-issued one survives a reload", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const stored = () => sql<{ readonly h: string }>`SELECT portal_token_hash AS h FROM engagements WHERE id = ${ids.engagement}`
      expect((yield* stored())[0]?.h).toBe(hashPortalToken(tokens.portal))
      const issued = "portal-issued-by-cli-000000001"
      yield* setPortalToken(ids.engagement, issued, Date.parse("2027-07-02T00:00:00Z"))
      yield* loadFixture(validFixture())
      expect((yield* stored())[0]?.h).toBe(hashPortalToken(issued))
      const raw = yield* sql`SELECT 1 FROM engagements WHERE portal_token_hash = ${issued} OR advance::text LIKE ${"%" + issued + "%"}`
      expect(raw.length).toBe(0)
    }))
})

describe("part ids scoped to their form, and a form made again under its id", () => {
  layer(embeddedPorts, { timeout: "60 seconds" })((it) => {
    it.effect("two forms may use the same section and field ids; a deleted form loaded again is read with its new fields", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const schemas = yield* FormSchemas
        const fixture = validFixture()
        const [volunteer, advance] = fixture.form_schemas
        if (volunteer === undefined || advance === undefined) return
        // The advance form reuses the volunteer form's part ids: allowed, they are the form's own names.
        const twin = {
          ...advance,
          sections: volunteer.sections,
          fields: volunteer.fields.map((f) => ({ ...f, maps_to: null }))
        }
        yield* loadFixture({ ...fixture, form_schemas: [volunteer, twin] })
        const all = volunteer.fields.length
        expect(Option.map(yield* schemas.findByToken(tokens.volunteer), (s) => s.fields.length)).toEqual(Option.some(all))
        // Deleted, then loaded again with one field less: revision 1 again, yet the reader must not serve
        // the definition it cached for the first form of that id and revision.
        yield* sql`DELETE FROM form_schemas WHERE id = ${ids.volunteer}`
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))
        yield* loadFixture({ ...fixture, form_schemas: [{ ...volunteer, fields: volunteer.fields.slice(1) }, twin] })
        const again = Option.getOrThrow(yield* schemas.findByToken(tokens.volunteer))
        expect([again.revision, again.fields.length]).toEqual([1, all - 1])
      }))
  })
})

describe("loadFixture refuses a file that is not a fixture", () => {
  layer(embeddedPorts, { timeout: "60 seconds" })((it) => {
    it.effect("a non-object, and lists of the wrong shape, are named", () =>
      Effect.gen(function*() {
        const notObject = yield* Effect.flip(loadFixture(42))
        expect(notObject._tag).toBe("FixtureRejected")
        const wrong = yield* Effect.flip(loadFixture({ organisations: [{ id: 5, name: "x" }], events: "nope" }))
        expect(wrong._tag === "FixtureRejected" ? wrong.problems.join("\n") : "").toMatch(/events/)
      }))
  })
})
