import { defineConfig } from "vitest/config"

// The pack test builds, packs and installs the libraries, then runs tsc and the programs: minutes on a
// loaded 2-core machine, most of it the builds and the npm install (bounds ten times looser than measured).
export default defineConfig({
  resolve: { conditions: ["@forms/source"] },
  ssr: { resolve: { conditions: ["@forms/source"] } },
  test: { include: ["test/**/*.test.ts"], testTimeout: 900_000, hookTimeout: 900_000, fileParallelism: false }
})
