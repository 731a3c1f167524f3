// `pnpm test` of @forms/e2e: the abuse suite, then the fault suite, the second even when the first failed;
// a line for each at the end, and a non-zero exit when either failed.
import { spawnSync } from "node:child_process"

const suites = [
  { name: "abuse", config: "vitest.abuse.config.ts" },
  { name: "faults", config: "vitest.faults.config.ts" }
]

const results = suites.map(({ name, config }) => {
  const started = Date.now()
  const run = spawnSync("vitest", ["run", "--config", config, ...process.argv.slice(2)], { stdio: "inherit" })
  const status = run.status ?? 1
  if (run.error !== undefined) console.error(`e2e: ${name} could not start: ${run.error.message}`)
  return { name, status, seconds: (Date.now() - started) / 1000 }
})

for (const { name, status, seconds } of results) {
  console.log(`e2e: the ${name} suite ${status === 0 ? "passed" : `FAILED (exit ${status})`} in ${seconds.toFixed(0)} s`)
}
process.exit(results.some((r) => r.status !== 0) ? 1 : 0)
