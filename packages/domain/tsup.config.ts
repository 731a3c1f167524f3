import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/internal.ts", "src/logic/index.ts", "src/memory/index.ts", "src/testing/index.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node22"
})
