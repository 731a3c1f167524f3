/** What a CLI command is: its usage line, its summary and what it runs with the shared configuration. */
import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { ServerConfig } from "./config.js"
import { StartupError } from "./startup.js"

/** A command on the configured database (the CLI opens it). */
export interface DatabaseCommand {
  readonly usage: string
  readonly summary: string
  readonly opensDatabase?: true
  readonly run: (args: ReadonlyArray<string>, config: ServerConfig) => Effect.Effect<void, unknown, SqlClient.SqlClient>
}

/** A command that opens no database through the CLI (restore writes one). */
export interface PlainCommand {
  readonly usage: string
  readonly summary: string
  readonly opensDatabase: false
  readonly run: (args: ReadonlyArray<string>, config: ServerConfig) => Effect.Effect<void, unknown>
}

export type Command = DatabaseCommand | PlainCommand

export const usageError = (command: Command) => new StartupError({ message: `Usage: pnpm cli ${command.usage}` })
