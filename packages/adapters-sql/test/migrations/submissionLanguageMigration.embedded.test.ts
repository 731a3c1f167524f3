/**
 * Migration 0030 on a database with submissions stored before it: each gets its form's default language (the first
 * of its `languages`), `en` for a form without them; a row written without a language afterwards is `en`.
 */
import { expect, layer } from "@effect/vitest"
import { PgMigrator } from "@effect/sql-pg"
import { NodeServices } from "@effect/platform-node"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Migrations } from "../../src/migrations/Migrations.js"

const before0030 = PgMigrator.run({
  loader: PgMigrator.fromRecord(Object.fromEntries(Object.entries(Migrations.migrations).filter(([name]) => name < "0030"))),
  table: Migrations.table
}).pipe(Effect.provide(NodeServices.layer))

layer(EmbeddedPg.layer(), { timeout: "120 seconds", excludeTestServices: true })("migration 0030 on embedded PostgreSQL (PGlite)", (it) => {
  it.effect("a submission stored before gets its form's default language; one without languages en", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* before0030
      yield* sql`INSERT INTO organisations (id, name) VALUES ('o', 'O')`
      yield* sql`INSERT INTO form_schemas (id, organisation_id, name, type, status, revision, languages) VALUES
        ('dutch', 'o', 'D', 'registration', 'published', '1', '["nl", "en"]'::jsonb),
        ('plain', 'o', 'P', 'registration', 'published', '1', NULL),
        ('english', 'o', 'E', 'registration', 'published', '1', '["en-GB", "fr"]'::jsonb)`
      yield* sql`INSERT INTO submissions (schema_id, idempotency_key, created_at, updated_at) VALUES
        ('dutch', 'key-dutch-0000000001', now(), now()), ('plain', 'key-plain-0000000001', now(), now()),
        ('english', 'key-english-00000001', now(), now())`
      yield* Migrations.run
      const rows = yield* sql<{ readonly schema_id: string; readonly language: string }>`
        SELECT schema_id, language FROM submissions ORDER BY schema_id`
      expect(rows.map((r) => [r.schema_id, r.language])).toEqual([["dutch", "nl"], ["english", "en-GB"], ["plain", "en"]])
      yield* sql`INSERT INTO submissions (schema_id, idempotency_key, created_at, updated_at) VALUES ('dutch', 'key-dutch-0000000002', now(), now())`
      const [later] = yield* sql<{ readonly language: string }>`SELECT language FROM submissions WHERE idempotency_key = 'key-dutch-0000000002'`
      expect(later?.language).toBe("en")
    }))
})
