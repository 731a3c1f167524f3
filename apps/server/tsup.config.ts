import { defineConfig } from "tsup"

// Workspace packages stay external: a built copy resolves them to their own dist (exports "import").
export default defineConfig({
  entry: ["src/main.ts", "src/cli.ts", "src/index.ts"],
  format: ["esm"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: true,
  target: "node22"
})
