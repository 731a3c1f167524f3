/**
 * Keeps the standalone server's heap in proportion to what it holds, without command-line flags (it starts as
 * `node apps/server/dist/main.js`; docs/operations.md, "Memory").
 *
 * Left alone, V8 sizes the young generation from the machine's memory, lets it grow to that size under any
 * sustained load, and lets the old generation grow to several times the live heap before a full collection. Two
 * flags that V8 reads while running fix that; the young generation's maximum is fixed at start-up, so its growth is
 * stopped instead:
 *
 * - after every collection, the semi-space growth factor is set to 1 once the young generation has reached
 *   `youngGenerationMb`, and back to V8's 2 while it is below (V8 shrinks it when idle). A smaller cap makes
 *   scavenges take a larger share of the main thread under load (bench/RESULTS.md);
 * - the old generation's limit after a full collection becomes the live heap plus `oldGrowthPercent` (V8 otherwise
 *   picks a growth from its measured GC speed).
 *
 * A flag of the same family given to node wins: that part is left alone. Node accepts them on its command
 * line (`node --heap-growing-percent=… apps/server/dist/main.js`); of them, only `--max-semi-space-size` is
 * allowed in NODE_OPTIONS (node refuses to start with the others there).
 */
import { PerformanceObserver } from "node:perf_hooks"
import v8 from "node:v8"

export interface HeapLimits {
  /** The young generation (both semi-spaces) stops growing at this size, in MiB. */
  readonly youngGenerationMb: number
  /** The old generation may grow this far above the live heap before the next full collection. */
  readonly oldGrowthPercent: number
}

export const serverHeapLimits: HeapLimits = { youngGenerationMb: 32, oldGrowthPercent: 50 }

const youngFlags = ["--max-semi-space-size", "--min-semi-space-size", "--semi-space-growth-factor"]
const oldFlags = ["--heap-growing-percent"]

/** True when the operator set one of `flags` (either spelling, `-` or `_`) for this process. */
const operatorSets = (flags: ReadonlyArray<string>, execArgv: ReadonlyArray<string>, nodeOptions: string): boolean => {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.replace(/_/g, "-"))
  return given.some((arg) => flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)))
}

const newSpaceBytes = (): number =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0

/** Applies `limits` for the life of the process (the GC observer does not keep it alive). */
export const applyHeapLimits = (limits: HeapLimits = serverHeapLimits): void => {
  const execArgv = process.execArgv
  const nodeOptions = process.env["NODE_OPTIONS"] ?? ""
  if (!operatorSets(oldFlags, execArgv, nodeOptions)) {
    v8.setFlagsFromString(`--heap-growing-percent=${limits.oldGrowthPercent}`)
  }
  if (operatorSets(youngFlags, execArgv, nodeOptions)) return
  const capBytes = limits.youngGenerationMb * 1024 * 1024
  let factor = 2
  const check = () => {
    const wanted = newSpaceBytes() >= capBytes ? 1 : 2
    if (wanted === factor) return
    v8.setFlagsFromString(`--semi-space-growth-factor=${wanted}`)
    factor = wanted
  }
  check()
  new PerformanceObserver(check).observe({ entryTypes: ["gc"] })
}
