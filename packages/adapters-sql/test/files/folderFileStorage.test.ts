import { mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Stream } from "effect"
import { FileStorage } from "@forms/domain"
import { fileStorageConformance } from "@forms/domain/testing"
import { FolderFileStorage } from "../../src/files/FolderFileStorage.js"

const freshDir = () => join(mkdtempSync(join(tmpdir(), "forms-files-")), "files")

fileStorageConformance("a folder", () => FolderFileStorage.layer(freshDir()))

describe("FolderFileStorage", () => {
  it.effect("the folder and its contents are the owner's only", () =>
    Effect.gen(function*() {
      const dir = freshDir()
      const storage = yield* Effect.provide(FileStorage, FolderFileStorage.layer(dir))
      yield* storage.put("a-key", Stream.make(new Uint8Array([1, 2, 3])))
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      expect(statSync(join(dir, "a-key")).mode & 0o777).toBe(0o600)
    }))

  it.effect("half-written files of a process that died are removed at start (another process's fresh ones stay); never listed", () =>
    Effect.gen(function*() {
      const dir = freshDir()
      const first = yield* Effect.provide(FileStorage, FolderFileStorage.layer(dir))
      yield* first.put("kept", Stream.make(new Uint8Array([1])))
      // what a SIGKILL during a put leaves: a temporary file, never a file under its real key
      const lost = join(dir, ".incoming", "lost.123.1")
      writeFileSync(lost, "half")
      const hourAgo = (Date.now() - 3_700_000) / 1000
      utimesSync(lost, hourAgo, hourAgo)
      writeFileSync(join(dir, ".incoming", "inflight.456.1"), "streaming")
      const second = yield* Effect.provide(FileStorage, FolderFileStorage.layer(dir))
      expect(yield* second.keys).toEqual(["kept"])
      expect(readdirSync(join(dir, ".incoming"))).toEqual(["inflight.456.1"])
    }))

  it.effect("a key that is not a generated id never reaches the file system", () =>
    Effect.gen(function*() {
      const storage = yield* Effect.provide(FileStorage, FolderFileStorage.layer(freshDir()))
      const failed = yield* Effect.flip(storage.put("../escape", Stream.make(new Uint8Array([1]))))
      expect(failed._tag).toBe("Unavailable")
    }))
})
