import { describe, expect, it } from "vitest"
import { moduleOf, remapFrames, summarizeProfile } from "./cpuProfile.js"

const frame = (functionName: string, url: string) => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: "0" })

describe("cpu profile summary", () => {
  it("names the module of a frame: effect files, other packages, our packages, node and V8", () => {
    expect(moduleOf(frame("x", "file:///r/node_modules/.pnpm/effect@4.1.0/node_modules/effect/dist/internal/effect.js"))).toBe("effect/internal/effect")
    expect(moduleOf(frame("x", "file:///r/node_modules/.pnpm/@effect+sql-pg@4.0.5/node_modules/@effect/sql-pg/dist/PgTypes.js"))).toBe("@effect/sql-pg")
    expect(moduleOf(frame("x", "file:///r/packages/domain/dist/index.js"))).toBe("@forms/domain")
    expect(moduleOf(frame("x", "node:internal/streams/writable"))).toBe("node:streams")
    expect(moduleOf(frame("writeBuffer", ""))).toBe("(V8 builtins and native)")
    expect(moduleOf(frame("(idle)", ""))).toBe("(idle)")
  })

  it("sums self time per function and inclusive time of our frames, each once per sample", () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("(root)", ""), children: [2, 4] },
        { id: 2, callFrame: frame("save", "file:///r/packages/domain/dist/a.js"), children: [3] },
        { id: 3, callFrame: frame("parse", ""), children: [] },
        { id: 4, callFrame: frame("(idle)", ""), children: [] }
      ],
      samples: [3, 3, 2, 4],
      timeDeltas: [1000, 1000, 1000, 1000]
    }
    const summary = summarizeProfile(profile)
    expect(summary.totalMs).toBe(4)
    expect(summary.busyMs).toBe(3)
    expect(summary.selfByFunction[0]).toEqual({ name: "parse :1", ms: 2, percent: 50 })
    expect(summary.inclusiveOurs).toEqual([{ name: "save packages/domain/dist/a.js:1", ms: 3, percent: 75 }])
  })

  it("frames of a bundle are counted where their source map says they come from", () => {
    const bundle = "file:///r/apps/server/dist/chunk-A.js"
    const profile = {
      nodes: [
        { id: 1, callFrame: frame("runLoop", bundle), children: [2] },
        { id: 2, callFrame: frame("save", bundle), children: [] }
      ],
      samples: [1, 2, 2],
      timeDeltas: [1000, 1000, 1000]
    }
    const remapped = remapFrames(profile, (f) =>
      f.url !== bundle ? undefined : f.functionName === "runLoop"
      ? { url: "file:///r/node_modules/.pnpm/effect@4.1.0/node_modules/effect/src/internal/effect.ts", lineNumber: 9 }
      : { url: "file:///r/packages/domain/src/save.ts", lineNumber: 4 })
    expect(summarizeProfile(remapped).selfByModule).toEqual([
      { name: "@forms/domain", ms: 2, percent: 66.7 },
      { name: "effect/internal/effect", ms: 1, percent: 33.3 }
    ])
  })
})
