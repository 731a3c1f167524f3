import { describe, expect, it } from "@effect/vitest"
import { embeddedWasmFlags, operatorTunesWasm } from "../../src/connection/embeddedMemory.js"
import { EmbeddedPg } from "../../src/connection/EmbeddedPg.js"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

describe("the embedded database's memory settings", () => {
  it("a wasm or liftoff flag given to node (either spelling, on the command line or in NODE_OPTIONS) wins", () => {
    expect(operatorTunesWasm(["--wasm-dynamic-tiering"], "")).toBe(true)
    expect(operatorTunesWasm([], "--max-old-space-size=512 --no_wasm_tier_up")).toBe(true)
    expect(operatorTunesWasm(["--liftoff-only"], "")).toBe(true)
    expect(operatorTunesWasm(["--conditions=@forms/source", "--max-semi-space-size=16"], "--enable-source-maps")).toBe(false)
    expect(embeddedWasmFlags.every((flag) => flag.startsWith("--no-wasm"))).toBe(true)
  })

  it.effect("PGlite runs with shared_buffers of 16 MB", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly shared_buffers: string }>`SHOW shared_buffers`
      expect(rows[0]?.shared_buffers).toBe("16MB")
    }).pipe(Effect.provide(EmbeddedPg.layer())), 60_000)
})
