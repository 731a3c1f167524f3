/** One process at a time on an embedded database folder; a holder that is gone leaves a lock that is taken over. */
import { describe, expect, it } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit } from "effect"
import { DataDirInUse, lockDataDir, lockFileName } from "../../src/connection/DataDirLock.js"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"

const withDir = (body: (dir: string) => void | Promise<void>) => async () => {
  const dir = mkdtempSync(join(tmpdir(), "forms-lock-"))
  try {
    await body(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const startOf = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]
}

describe("the lock of an embedded database folder", () => {
  it("is held until released: a second open, in this process too, is refused", withDir((dir) => {
    const lock = lockDataDir(dir)
    expect(JSON.parse(readFileSync(join(dir, lockFileName), "utf8"))).toMatchObject({ pid: process.pid })
    expect(() => lockDataDir(dir)).toThrow(DataDirInUse)
    lock.release()
    expect(existsSync(join(dir, lockFileName))).toBe(false)
    lockDataDir(dir).release()
  }))

  it("a lock whose process is gone is taken over", withDir((dir) => {
    const { pid } = spawnSync("true")
    writeFileSync(join(dir, lockFileName), JSON.stringify({ pid, started: "1" }))
    const lock = lockDataDir(dir)
    expect(JSON.parse(readFileSync(join(dir, lockFileName), "utf8"))).toMatchObject({ pid: process.pid })
    lock.release()
  }))

  it.runIf(process.platform === "linux")("a live holder keeps it; the same pid started at another time does not", withDir(async (dir) => {
    const holder = spawn("sleep", ["30"], { stdio: "ignore" })
    try {
      const pid = holder.pid ?? 0
      writeFileSync(join(dir, lockFileName), JSON.stringify({ pid, started: startOf(pid) }))
      expect(() => lockDataDir(dir)).toThrow(`in use by process ${pid}`)
      // The pid was reused by another process since the lock was written.
      writeFileSync(join(dir, lockFileName), JSON.stringify({ pid, started: "1" }))
      lockDataDir(dir).release()
    } finally {
      holder.kill()
    }
  }))

  it.live("EmbeddedPg refuses a folder another layer holds, with a message saying so", () =>
    Effect.gen(function*() {
      const dir = mkdtempSync(join(tmpdir(), "forms-lock-"))
      const lock = lockDataDir(dir)
      const exit = yield* Effect.exit(Effect.provide(Effect.void, EmbeddedPg.layer({ dataDir: dir })))
      lock.release()
      rmSync(dir, { recursive: true, force: true })
      expect(Exit.isFailure(exit)).toBe(true)
      expect(JSON.stringify(exit)).toContain("only while the server is not running")
    }))
})
