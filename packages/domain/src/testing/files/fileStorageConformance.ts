/** Conformance of FileStorage: every adapter (memory, a folder, S3) streams, keeps only whole contents, removes. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option, Stream } from "effect"
import { FileStorage } from "../../files/FileStorage.js"

const bytes = (n: number, seed: number): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256)

const read = (key: string) =>
  Effect.gen(function*() {
    const storage = yield* FileStorage
    const found = yield* storage.get(key)
    if (Option.isNone(found)) return undefined
    const chunks = yield* Stream.runCollect(found.value)
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
    let offset = 0
    for (const chunk of chunks) {
      out.set(chunk, offset)
      offset += chunk.length
    }
    return out
  })

class Broken extends Error {}

/**
 * Registers the FileStorage conformance tests. `makeLayer()` is built once for the block; keys are random per
 * run, so a store that outlives the run is fine.
 */
export const fileStorageConformance = (
  name: string,
  makeLayer: () => Layer.Layer<FileStorage, unknown>,
  options: { readonly timeout?: number } = {}
): void => {
  const run = Math.random().toString(36).slice(2, 10)
  let counter = 0
  const key = () => `00000000-0000-4000-a${run.slice(0, 3)}-${String(++counter).padStart(12, "0")}`
  describe(name, () => {
    layer(makeLayer(), { timeout: options.timeout ?? 60_000, excludeTestServices: true })("FileStorage conformance", (it) => {
      it.effect("a content put in many chunks reads back byte for byte", () =>
        Effect.gen(function*() {
          const storage = yield* FileStorage
          const k = key()
          const chunks = Array.from({ length: 40 }, (_, i) => bytes(16_384 + i, i))
          yield* storage.put(k, Stream.fromIterable(chunks))
          const back = yield* read(k)
          const expected = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
          let offset = 0
          for (const chunk of chunks) (expected.set(chunk, offset), offset += chunk.length)
          expect(back).toEqual(expected)
          expect(yield* storage.keys).toContain(k)
        }))

      it.effect("an empty content is a content", () =>
        Effect.gen(function*() {
          const storage = yield* FileStorage
          const k = key()
          yield* storage.put(k, Stream.empty)
          expect(yield* read(k)).toEqual(new Uint8Array(0))
        }))

      it.effect("a body that fails midway leaves nothing under its key, and its failure is passed on", () =>
        Effect.gen(function*() {
          const storage = yield* FileStorage
          const k = key()
          const body = Stream.concat(Stream.make(bytes(70_000, 1)), Stream.fail(new Broken("client went away")))
          const failed = yield* Effect.flip(storage.put(k, body))
          expect(failed).toBeInstanceOf(Broken)
          expect(yield* read(k)).toBeUndefined()
          expect(yield* storage.keys).not.toContain(k)
        }))

      it.effect("remove deletes the content; removing again or an unknown key succeeds", () =>
        Effect.gen(function*() {
          const storage = yield* FileStorage
          const k = key()
          yield* storage.put(k, Stream.make(bytes(10, 2)))
          yield* storage.remove(k)
          expect(yield* read(k)).toBeUndefined()
          yield* storage.remove(k)
          yield* storage.remove(key())
          expect(yield* storage.keys).not.toContain(k)
        }))

      it.effect("a put over an existing key replaces its content whole", () =>
        Effect.gen(function*() {
          const storage = yield* FileStorage
          const k = key()
          yield* storage.put(k, Stream.make(bytes(100, 3)))
          yield* storage.put(k, Stream.make(bytes(5, 4)))
          expect(yield* read(k)).toEqual(bytes(5, 4))
        }))
    })
  })
}
