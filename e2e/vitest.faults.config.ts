import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "@forms/source" condition.
// One file at a time: each fault test runs its own server process, load and database.
export default defineConfig({
  resolve: { conditions: ["@forms/source"] },
  ssr: { resolve: { conditions: ["@forms/source"] } },
  test: {
    include: ["src/faults/**/*.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    passWithNoTests: true,
    fileParallelism: false
  }
})
