// The same flow on PostgreSQL embedded in the process (PGlite): migrations, a fixture, every port in SQL.
import { EmbeddedPg, FolderFileStorage, loadFixture, Migrations, SqlPorts } from "@forms/adapters-sql"
import { clientAt, FormsConfig, PublicForms, PublicFormsLive } from "@forms/domain"
import { Effect, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { festival, formToken } from "./festival.js"

const program = Effect.gen(function*() {
  const forms = yield* PublicForms
  const visitor = clientAt("203.0.113.7")
  const created = yield* forms.createDraft(formToken, { idempotency_key: crypto.randomUUID() }, visitor)
  const id = created.value.submission.id
  yield* forms.save(formToken, id, { full_name: "Ada Lovelace" }, visitor)
  const submitted = yield* forms.submit(formToken, id, { email: "ada@example.org" }, visitor)
  return submitted.value
})

// PgLive.layer({ url: "postgres://…" }) in place of EmbeddedPg.layer() runs the same on a PostgreSQL server.
const Database = EmbeddedPg.layer() // in memory; EmbeddedPg.layer({ dataDir }) keeps the data in a folder
const Prepared = Layer.effectDiscard(Effect.andThen(Migrations.run, loadFixture(festival)))
const SqlForms = PublicFormsLive.layer.pipe(
  // Uploads of file fields go to a folder (a temporary one here).
  Layer.provide([SqlPorts.layer, FormsConfig.layer(), FolderFileStorage.layer(mkdtempSync(join(tmpdir(), "forms-files-")))]),
  Layer.provide(Prepared), // built after Database, before the ports
  Layer.provide(Database)
)

const submission = await Effect.runPromise(program.pipe(Effect.provide(SqlForms)))
console.log(submission.status, JSON.stringify(submission.values))
