/** The CLI's commands (CONTRACT §11). Each gets its arguments and the shared configuration. */
import { Console, Effect, Layer } from "effect"
import { randomBytes } from "node:crypto"
import {
  loadFixture,
  Migrations,
  SqlOrganiserAccess,
  SqlOrganiserArtists,
  SqlOrganiserCatalog,
  SqlOrganiserForms
} from "@forms/adapters-sql"
import { FormAuthoring, FormAuthoringLive, FormsConfig, Organiser, OrganiserLive } from "@forms/domain"
import { type Command, usageError } from "./command.js"
import { baseUrlOf, formUrl, portalUrl, resolvePath } from "./config.js"
import { eventsCommand } from "./eventsCommand.js"
import { backupCommand, restoreCommand } from "./operations/backupCommands.js"
import { apiKeyCommand, organisationCommand } from "./organiserCommands.js"
import { readFixtureFile, StartupError } from "./startup.js"

export type { Command, DatabaseCommand, PlainCommand } from "./command.js"
export { usageError } from "./command.js"

/** 32 random bytes in base64url (CONTRACT §11). */
export const generateToken = (): string => randomBytes(32).toString("base64url")

const organiserLayer = OrganiserLive.layer.pipe(
  Layer.provide([SqlOrganiserAccess.layer, SqlOrganiserCatalog.layer, SqlOrganiserArtists.layer])
)

const formAuthoringLayer = FormAuthoringLive.layer.pipe(
  Layer.provide([SqlOrganiserForms.layer, SqlOrganiserCatalog.layer])
)

const importCommand: Command = {
  usage: "import <fixture.json>",
  summary: "load a fixture (upsert by id; loading twice changes nothing)",
  run: (args, _config) =>
    Effect.gen(function*() {
      const [file] = args
      if (file === undefined || args.length !== 1) return yield* usageError(importCommand)
      const json = yield* readFixtureFile(resolvePath(process.env, file), "import")
      yield* Migrations.run
      const summary = yield* loadFixture(json)
      const records = Object.entries(summary.records).map(([table, n]) => `${table}: ${n}`).join(", ")
      yield* Console.log(`Imported ${file} (${records}); ${summary.changed} rows changed.`)
    })
}

const rotateTokenCommand: Command = {
  usage: "rotate-token <schema_id>",
  summary: "give a form a new public token; the old one keeps working for FORM_TOKEN_GRACE_SECONDS",
  run: (args, config) =>
    Effect.gen(function*() {
      const [schemaId] = args
      if (schemaId === undefined || args.length !== 1) return yield* usageError(rotateTokenCommand)
      yield* Migrations.run
      const token = generateToken()
      // The one rotation use case, shared with POST /admin/forms/{id}/rotate-token (audited; revision unchanged).
      yield* Effect.flatMap(FormAuthoring, (authoring) => authoring.rotateToken(undefined, schemaId, token)).pipe(
        Effect.provide(formAuthoringLayer.pipe(Layer.provide(FormsConfig.layer({ fileMaxBytes: config.fileMaxBytes })))),
        Effect.catchTag("FormNotFound", () =>
          Effect.fail(new StartupError({ message: `No form schema has the id ${JSON.stringify(schemaId)}.` })))
      )
      yield* Console.log(`New public URL of ${schemaId} (the previous one works for ${config.tokenGraceSeconds} s):`)
      yield* Console.log(formUrl(baseUrlOf(config), token))
    })
}

const portalLinkCommand: Command = {
  usage: "portal-link <engagement_id>",
  summary: "give an engagement a new artist-portal link (only its hash is stored); the old link stops working",
  run: (args, config) =>
    Effect.gen(function*() {
      const [engagementId] = args
      if (engagementId === undefined || args.length !== 1) return yield* usageError(portalLinkCommand)
      yield* Migrations.run
      const token = generateToken()
      // The one portal-link use case, shared with POST /admin/engagements/{id}/portal-link (audited, hash only).
      yield* Effect.flatMap(Organiser, (organiser) => organiser.issuePortalLink(undefined, engagementId, token)).pipe(
        Effect.provide(organiserLayer),
        Effect.catchTag("EngagementNotFound", () =>
          Effect.fail(new StartupError({ message: `No engagement has the id ${JSON.stringify(engagementId)}.` })))
      )
      // The only time this token is written out: it cannot be recovered from its hash.
      yield* Console.log(`New artist portal URL of ${engagementId} (shown once; the previous link no longer works):`)
      yield* Console.log(portalUrl(baseUrlOf(config), token))
    })
}

export const commands: Readonly<Record<string, Command>> = {
  "import": importCommand,
  "rotate-token": rotateTokenCommand,
  "portal-link": portalLinkCommand,
  "events": eventsCommand,
  "organisation": organisationCommand,
  "api-key": apiKeyCommand,
  "backup": backupCommand,
  "restore": restoreCommand
}

export const usage = (): string =>
  [
    "Usage: pnpm cli <command>",
    "",
    ...Object.values(commands).map((c) => `  ${c.usage.padEnd(38)} ${c.summary}`),
    "",
    "Configuration comes from the same environment variables as the server (DATABASE_URL, DATA_DIR, PUBLIC_BASE_URL, ...)."
  ].join("\n")
