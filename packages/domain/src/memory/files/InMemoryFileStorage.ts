/** The in-memory FileStorage: contents in a map, put only once the whole body arrived. */
import { Effect, Layer, Option, Stream } from "effect"
import { FileStorage } from "../../files/FileStorage.js"

const concat = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}

export const makeInMemoryFileStorage = () => {
  const contents = new Map<string, Uint8Array>()
  return FileStorage.of({
    put: (key, body) =>
      Effect.gen(function*() {
        const chunks: Array<Uint8Array> = []
        yield* Stream.runForEach(body, (chunk) => Effect.sync(() => chunks.push(chunk)))
        contents.set(key, concat(chunks))
      }),
    get: (key) =>
      Effect.sync(() => {
        const found = contents.get(key)
        return found === undefined ? Option.none() : Option.some(Stream.make(found))
      }),
    remove: (key) => Effect.sync(() => void contents.delete(key)),
    keys: Effect.sync(() => [...contents.keys()])
  })
}

export const InMemoryFileStorage = { layer: Layer.sync(FileStorage, makeInMemoryFileStorage) } as const
