import { defineConfig } from "vitest/config"

// Workspace packages resolve to their TypeScript sources through the "@forms/source" condition.
export default defineConfig({
  resolve: { conditions: ["@forms/source"] },
  ssr: { resolve: { conditions: ["@forms/source"] } },
  test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"] }
})
