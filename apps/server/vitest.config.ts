import { defineConfig } from "vitest/config"

const heap = "test/heapLimits.test.ts"

// Workspace packages resolve to their TypeScript sources through the "@forms/source" condition.
export default defineConfig({
  resolve: { conditions: ["@forms/source"] },
  ssr: { resolve: { conditions: ["@forms/source"] } },
  // A loaded 2-core CI machine runs PGlite start-ups and races slowly: generous bounds, still finite.
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits 1 s by default: too short for an autosave (a pause, then a request) on a loaded machine.
    expect: { poll: { timeout: 15_000 } },
    // The heap-limit test compares two child processes that allocate for 4 s each: it runs after every other
    // file, alone, so that another file's bursts (a PGlite start, a compiler run) cannot slow one of the two.
    projects: [
      { extends: true, test: { name: "server", include: ["src/**/*.test.ts", "test/**/*.test.ts"], exclude: [heap] } },
      { extends: true, test: { name: "heap", include: [heap], sequence: { groupOrder: 1 } } }
    ]
  }
})
