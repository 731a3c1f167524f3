/**
 * Migration 0023 on a database with forms stored before it: every part gains null conditions and help, and a
 * hidden field that is required or unique (which the definition check now refuses) is kept and named in the log.
 */
import { expect, layer } from "@effect/vitest"
import { PgMigrator } from "@effect/sql-pg"
import { NodeServices } from "@effect/platform-node"
import { Effect, Logger } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../src/migrations/Migrations.js"

const before0023 = PgMigrator.run({
  loader: PgMigrator.fromRecord(Object.fromEntries(Object.entries(Migrations.migrations).filter(([name]) => name < "0023"))),
  table: Migrations.table
}).pipe(Effect.provide(NodeServices.layer))

const logged: Array<{ readonly message: unknown; readonly annotations: Record<string, unknown> }> = []
const capture = Logger.layer([Logger.map(Logger.formatStructured, (entry) => {
  logged.push({ message: entry.message, annotations: entry.annotations })
})])

layer(EmbeddedPg.layer(), { timeout: "120 seconds", excludeTestServices: true })("migration 0023 on embedded PostgreSQL (PGlite)", (it) => {
  it.effect("adds null conditions and help; a required or unique hidden field stored before is kept and reported by form and path", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* before0023
      yield* sql`INSERT INTO organisations (id, name) VALUES ('o', 'O')`
      yield* sql`INSERT INTO form_schemas (id, organisation_id, name, type, status, revision) VALUES ('fs', 'o', 'F', 'registration', 'draft', '1')`
      yield* sql`INSERT INTO form_fields (schema_id, id, slug, label, type, is_required, is_unique, position) VALUES
        ('fs', 'a', 'a', 'A', 'text', true, false, 1), ('fs', 'b', 'b', 'B', 'hidden', true, true, 2),
        ('fs', 'c', 'c', 'C', 'hidden', false, false, 3)`
      yield* Migrations.run.pipe(Effect.provide(capture))
      const rows = yield* sql<{ readonly slug: string; readonly visible_if: unknown; readonly help: unknown; readonly is_required: boolean }>`
        SELECT slug, visible_if, help, is_required FROM form_fields ORDER BY slug`
      expect(rows.map((r) => [r.slug, r.visible_if, r.help, r.is_required])).toEqual([
        ["a", null, null, true], ["b", null, null, true], ["c", null, null, false]
      ])
      const reports = logged.filter((entry) => String(entry.message).includes("hidden field"))
      expect(reports.map((entry) => [entry.annotations["form_schema_id"], entry.annotations["path"]])).toEqual([
        ["fs", "fields.1.is_required"], ["fs", "fields.1.is_unique"]
      ])
    }))
})
