/**
 * `pnpm cli organisation create <name>` and `pnpm cli api-key create|list|revoke` (CONTRACT §12). A new
 * key is printed once: only its SHA-256 hash is stored, so it cannot be shown again.
 */
import { Clock, Console, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { Migrations, SqlOrganiserAccess } from "@forms/adapters-sql"
import { type ApiKeyRecord, maxNameLength, OrganiserAccess } from "@forms/domain"
import type { ServerConfig } from "./config.js"
import { StartupError } from "./startup.js"

/** `fok_` and 32 random bytes in base64url. */
export const generateApiKey = (): string => `fok_${randomBytes(32).toString("base64url")}`

type Run = (args: ReadonlyArray<string>, config: ServerConfig) => Effect.Effect<void, unknown, SqlClient.SqlClient>

const fail = (message: string) => Effect.fail(new StartupError({ message }))

const checkName = (name: string) =>
  name.trim() === "" || [...name].length > maxNameLength || name.includes("\u0000")
    ? fail(`A name is 1 to ${maxNameLength} characters.`)
    : Effect.void

const withAccess = <A, E>(effect: Effect.Effect<A, E, OrganiserAccess>) =>
  Migrations.run.pipe(Effect.andThen(effect), Effect.provide(SqlOrganiserAccess.layer))

const iso = (ms: number | null): string => (ms === null ? "-" : new Date(ms).toISOString())

/** One line per key: never the key, only its first 8 characters. */
export const apiKeyLine = (key: ApiKeyRecord): string =>
  [key.id, key.name ?? "-", key.prefix, iso(key.created_at), iso(key.last_used_at), key.revoked_at === null ? "active" : `revoked ${iso(key.revoked_at)}`]
    .join("\t")

const organisationUsage = "organisation create <name>"
const runOrganisation: Run = (args) =>
  Effect.gen(function*() {
    const [sub, name, ...rest] = args
    if (sub !== "create" || name === undefined || rest.length > 0) return yield* fail(`Usage: pnpm cli ${organisationUsage}`)
    yield* checkName(name)
    const organisation = yield* withAccess(Effect.flatMap(OrganiserAccess, (a) => a.createOrganisation(name)))
    yield* Console.log(`Created organisation ${JSON.stringify(name)}; its id:`)
    yield* Console.log(organisation.id)
  })

const apiKeyUsage = "api-key create <organisation_id> [--name <name>] | api-key list <organisation_id> | api-key revoke <key_id>"
const runApiKey: Run = (args) =>
  Effect.gen(function*() {
    const [sub, id, ...rest] = args
    const usage = fail(`Usage: pnpm cli ${apiKeyUsage}`)
    if (id === undefined) return yield* usage
    if (sub === "create") {
      if (rest.length !== 0 && (rest.length !== 2 || rest[0] !== "--name")) return yield* usage
      const name = rest[1] ?? null
      if (name !== null) yield* checkName(name)
      const key = generateApiKey()
      const created = yield* withAccess(Effect.gen(function*() {
        const access = yield* OrganiserAccess
        return yield* access.createApiKey({ organisation_id: id, name, key, created_at: yield* Clock.currentTimeMillis })
      }))
      if (Option.isNone(created)) return yield* fail(`No organisation has the id ${JSON.stringify(id)}.`)
      yield* Console.log(`Created API key ${created.value.id} for ${id}. The key (shown once; only its hash is stored):`)
      return yield* Console.log(key)
    }
    if (rest.length > 0) return yield* usage
    if (sub === "list") {
      const keys = yield* withAccess(Effect.flatMap(OrganiserAccess, (a) => a.listApiKeys(id)))
      if (keys.length === 0) return yield* Console.log(`No API keys for ${id}.`)
      yield* Console.log(["id", "name", "first_8", "created_at", "last_used_at", "state"].join("\t"))
      for (const key of keys) yield* Console.log(apiKeyLine(key))
      return
    }
    if (sub === "revoke") {
      const revoked = yield* withAccess(Effect.gen(function*() {
        const access = yield* OrganiserAccess
        return yield* access.revokeApiKey(id, yield* Clock.currentTimeMillis)
      }))
      if (Option.isNone(revoked)) return yield* fail(`No API key has the id ${JSON.stringify(id)}.`)
      return yield* Console.log(`Revoked API key ${id}: requests with it answer 401 from now on.`)
    }
    return yield* usage
  })

export const organisationCommand = {
  usage: organisationUsage,
  summary: "create an organisation; prints its id",
  run: runOrganisation
} as const

export const apiKeyCommand = {
  usage: apiKeyUsage,
  summary: "create (prints the key once), list or revoke an organisation's API keys",
  run: runApiKey
} as const
