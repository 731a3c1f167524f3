/** The CLI's commands (CONTRACT §11). Each gets its arguments and the shared configuration. */
import { Clock, Console, Effect } from "effect"
import { randomBytes } from "node:crypto"
import type { SqlClient } from "effect/sql"
import { loadFixture, Migrations, rotatePublicToken } from "@forms/adapters-sql"
import { baseUrlOf, formUrl, resolvePath, type ServerConfig } from "./config.js"
import { readFixtureFile, StartupError } from "./startup.js"

export interface Command {
  readonly usage: string
  readonly summary: string
  readonly run: (args: ReadonlyArray<string>, config: ServerConfig) => Effect.Effect<void, unknown, SqlClient.SqlClient>
}

/** 32 random bytes in base64url (CONTRACT §11). */
export const generateToken = (): string => randomBytes(32).toString("base64url")

const usageError = (command: Command) => new StartupError({ message: `Usage: pnpm cli ${command.usage}` })

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
      yield* rotatePublicToken(schemaId, token, yield* Clock.currentTimeMillis)
      yield* Console.log(`New public URL of ${schemaId} (the previous one works for ${config.tokenGraceSeconds} s):`)
      yield* Console.log(formUrl(baseUrlOf(config), token))
    })
}

/** `portal-link` and `events` are added here by the portal and events work. */
export const commands: Readonly<Record<string, Command>> = {
  "import": importCommand,
  "rotate-token": rotateTokenCommand
}

export const usage = (): string =>
  [
    "Usage: pnpm cli <command>",
    "",
    ...Object.values(commands).map((c) => `  ${c.usage.padEnd(28)} ${c.summary}`),
    "",
    "Configuration comes from the same environment variables as the server (DATABASE_URL, DATA_DIR, PUBLIC_BASE_URL, ...)."
  ].join("\n")
