// The same organiser program on PostgreSQL embedded in the process (PGlite): migrations, the ports in SQL.
import { EmbeddedPg, Migrations, SqlOrganiserAccess, SqlOrganiserArtists, SqlOrganiserCatalog } from "@forms/adapters-sql"
import { OrganiserLive } from "@forms/domain"
import { Effect, Layer } from "effect"
import { organiserProgram } from "./organiser.js"

const SqlOrganiserPorts = Layer.mergeAll(SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlOrganiserArtists.layer)
const SqlOrganiserUseCases = OrganiserLive.layer.pipe(
  Layer.provideMerge(SqlOrganiserPorts),
  Layer.provide(Layer.effectDiscard(Migrations.run)), // built after the database, before the ports
  Layer.provide(EmbeddedPg.layer()) // PgLive.layer({ url: "postgres://…" }): the same on a PostgreSQL server
)

console.log(JSON.stringify(await Effect.runPromise(organiserProgram.pipe(Effect.provide(SqlOrganiserUseCases)))))
