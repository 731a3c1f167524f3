/**
 * Where the token key comes from (links in messages keep their tokens sealed under it): TOKEN_KEY when set (then
 * the key is in no database and no backup); else one generated once and kept beside the data: a file in the
 * embedded database's folder, or the `token_keys` table of PostgreSQL, shared by every process.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { AesTokenCipher, newTokenKey, tokenKeyOf } from "@forms/adapters-http"
import { sqlTokenKey } from "@forms/adapters-sql"
import { Unavailable } from "@forms/domain"
import type { ServerConfig } from "./config.js"

/** The file of the embedded database's folder that keeps the key. */
export const tokenKeyFile = (dataDir: string): string => join(dataDir, "token.key")

const keyOf = (text: string) =>
  Effect.suspend(() => {
    const key = tokenKeyOf(text)
    return key === undefined ? Effect.fail(new Unavailable({ reason: "The stored token key is not 32 bytes in base64." })) : Effect.succeed(key)
  })

/** The key in `file`, written there first (readable by its owner only) when there is none. */
export const fileTokenKey = (file: string) =>
  Effect.try({
    try: () => {
      try {
        writeFileSync(file, `${newTokenKey()}\n`, { flag: "wx", mode: 0o600 })
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
      }
      return readFileSync(file, "utf8")
    },
    catch: () => new Unavailable({ reason: "The token key file cannot be read or written." })
  }).pipe(Effect.flatMap(keyOf))

/** `TokenCipher` for the server: `embedded` when the data is the embedded database in DATA_DIR. */
export const tokenCipherLayer = (config: ServerConfig, embedded: boolean) => {
  const given = config.tokenKey
  if (given !== undefined) return AesTokenCipher.layer(Effect.succeed(Redacted.value(given)))
  if (embedded) return AesTokenCipher.layer(fileTokenKey(tokenKeyFile(config.dataDir)))
  return Layer.unwrap(Effect.map(SqlClient.SqlClient, (sql) =>
    AesTokenCipher.layer(sqlTokenKey(newTokenKey()).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.flatMap(keyOf)))))
}
