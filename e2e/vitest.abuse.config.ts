import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "@forms/source" condition.
// One file at a time: the timing checks (regex, event-loop lag) must not share the 2 cores with another file.
export default defineConfig({
  resolve: { conditions: ["@forms/source"] },
  ssr: { resolve: { conditions: ["@forms/source"] } },
  test: {
    include: ["src/abuse/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    passWithNoTests: true,
    fileParallelism: false
  }
})
