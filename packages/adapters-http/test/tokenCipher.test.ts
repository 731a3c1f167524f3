/** AES-256-GCM sealing of link tokens: a round trip, a fresh nonce per seal, nothing for an altered text or another key. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TokenCipher } from "@forms/domain"
import { AesTokenCipher, newTokenKey, openWith, sealWith, tokenKeyOf } from "../src/messages/AesTokenCipher.js"

const key = tokenKeyOf(newTokenKey()) as Uint8Array
const other = tokenKeyOf(newTokenKey()) as Uint8Array

describe("the token cipher", () => {
  it("opens what it sealed; two seals of one token differ; the token is not in the text", () => {
    const token = "resume-token-abcdefghijklmnopqrstuvwxyz0123456789"
    const a = sealWith(key, token)
    const b = sealWith(key, token)
    expect(a).not.toBe(b)
    expect(a).not.toContain(token)
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(openWith(key, a)).toBe(token)
    expect(openWith(key, b)).toBe(token)
  })

  it("an altered text, another key or junk opens to nothing", () => {
    const sealed = sealWith(key, "a token")
    const [v, nonce, tag, body] = sealed.split(".")
    const flipped = `${v}.${nonce}.${tag}.${(body ?? "").slice(0, -2)}${(body ?? "").endsWith("A") ? "BA" : "AA"}`
    expect(openWith(key, flipped)).toBeUndefined()
    expect(openWith(other, sealed)).toBeUndefined()
    for (const junk of ["", "v1", "v2.a.b.c", "v1.a.b.c.d", "v1.!!.??.**"]) expect(openWith(key, junk)).toBeUndefined()
  })

  it("TOKEN_KEY is 32 bytes in base64 (standard or url-safe), nothing else", () => {
    expect(tokenKeyOf(Buffer.alloc(32, 7).toString("base64"))?.length).toBe(32)
    expect(tokenKeyOf(Buffer.alloc(32, 250).toString("base64url"))?.length).toBe(32)
    expect(tokenKeyOf(Buffer.alloc(31, 7).toString("base64"))).toBeUndefined()
    expect(tokenKeyOf(Buffer.alloc(33, 7).toString("base64"))).toBeUndefined()
    expect(tokenKeyOf("not a key")).toBeUndefined()
  })

  it.effect("the layer reads its key once, when first needed", () =>
    Effect.gen(function*() {
      let reads = 0
      const layer = AesTokenCipher.layer(Effect.sync(() => (reads++, key)))
      yield* Effect.gen(function*() {
        const cipher = yield* TokenCipher
        expect(reads).toBe(0)
        const sealed = yield* cipher.seal("t1")
        expect(yield* cipher.open(sealed)).toBe("t1")
        expect(openWith(key, sealed)).toBe("t1")
        expect(reads).toBe(1)
      }).pipe(Effect.provide(layer))
    }))
})
