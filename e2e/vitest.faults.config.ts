import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "@forms/source" condition.
export default defineConfig({
  resolve: { conditions: ["@forms/source"] },
  ssr: { resolve: { conditions: ["@forms/source"] } },
  test: { include: ["src/faults/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000, passWithNoTests: true }
})
