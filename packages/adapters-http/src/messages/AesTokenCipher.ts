/**
 * `TokenCipher` with node:crypto's AES-256-GCM: `v1.<nonce>.<tag>.<ciphertext>` (base64url), a random 96-bit nonce
 * per seal; a text altered or sealed under another key opens to nothing. The key (32 bytes) is read once, when
 * first needed, from the source given (TOKEN_KEY, a file beside the data, or a table of the database).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { Effect, Layer } from "effect"
import { TokenCipher, type Unavailable } from "@forms/domain"

const version = "v1"

/** TOKEN_KEY's form: 32 bytes in standard or url-safe base64; undefined otherwise. */
export const tokenKeyOf = (text: string): Uint8Array | undefined => {
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(text.trim())) return undefined
  const bytes = Buffer.from(text.trim().replace(/-/g, "+").replace(/_/g, "/"), "base64")
  return bytes.length === 32 ? new Uint8Array(bytes) : undefined
}

/** A new key, as TOKEN_KEY would hold it (standard base64 of 32 random bytes). */
export const newTokenKey = (): string => randomBytes(32).toString("base64")

export const sealWith = (key: Uint8Array, token: string): string => {
  const nonce = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, nonce)
  const body = Buffer.concat([cipher.update(token, "utf8"), cipher.final()])
  return [version, nonce.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".")
}

export const openWith = (key: Uint8Array, sealed: string): string | undefined => {
  const [v, nonce, tag, body, ...rest] = sealed.split(".")
  if (v !== version || nonce === undefined || tag === undefined || body === undefined || rest.length > 0) return undefined
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
  } catch {
    return undefined
  }
}

export const AesTokenCipher = {
  /** `key`: the key's source, run once (its result kept). */
  layer: (key: Effect.Effect<Uint8Array, Unavailable>) =>
    Layer.effect(TokenCipher, Effect.gen(function*() {
      const cached = yield* Effect.cached(key)
      return TokenCipher.of({
        seal: (token) => Effect.map(cached, (k) => sealWith(k, token)),
        open: (sealed) => Effect.map(cached, (k) => openWith(k, sealed))
      })
    }))
} as const
