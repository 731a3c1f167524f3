import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "@forms/source" condition.
export default defineConfig({
  resolve: { conditions: ["@forms/source"] },
  ssr: { resolve: { conditions: ["@forms/source"] } },
  // A loaded 2-core CI machine runs PGlite start-ups and races slowly: generous bounds, still finite.
  test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 }
})
