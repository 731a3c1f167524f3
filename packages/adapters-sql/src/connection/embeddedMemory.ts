/**
 * What keeps the embedded database's memory small (issue 23; figures in bench/RESULTS.md).
 *
 * - PGlite is a large WebAssembly module. V8 compiles it with Liftoff and then recompiles its hot functions
 *   with TurboFan: under load that tier-up held the process at 0.9–1.2 GB for a database that needs about
 *   350 MB, and bought no measurable throughput (the flows are bound by round trips, not by the
 *   interpreter's speed). Liftoff alone is kept. V8 reads these two flags when a module is compiled, so
 *   they work when set at run time, before PGlite is imported. They are process-wide and touch nothing
 *   but WebAssembly. A wasm flag given to node (command line or NODE_OPTIONS) wins: then nothing is set.
 * - `shared_buffers` is 16 MB instead of PostgreSQL's 128 MB: in PGlite it is WebAssembly memory, which
 *   never shrinks, while the operating system caches the data directory's files anyway.
 */
import v8 from "node:v8"

export const embeddedWasmFlags = ["--no-wasm-tier-up", "--no-wasm-dynamic-tiering"] as const

export const embeddedSettings = ["-c", "shared_buffers=16MB"] as const

/** True when the operator gave node a WebAssembly flag of its own. */
export const operatorTunesWasm = (execArgv: ReadonlyArray<string>, nodeOptions: string): boolean =>
  [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => /^--(no-)?(wasm|liftoff)/.test(arg.replace(/_/g, "-")))

/** Sets `embeddedWasmFlags` unless the operator chose: call before PGlite is imported. */
export const keepWasmCompact = (): void => {
  if (operatorTunesWasm(process.execArgv, process.env["NODE_OPTIONS"] ?? "")) return
  for (const flag of embeddedWasmFlags) v8.setFlagsFromString(flag)
}
