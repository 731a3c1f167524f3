/**
 * `pnpm --filter @forms/bench profile`: one server under flow load with `node --cpu-prof`, then the
 * profile's top entries by self time, by module, and the inclusive time of our own code.
 * Options: --server=ours|reference|lean --concurrency=64 --duration=15 --warmup=3 --log=info --top=25
 * --traffic=visitors|one-address (visitors: each flow its own X-Forwarded-For address, default limits).
 * --analyse=<file.cpuprofile>: only the tables, for a profile taken elsewhere (`node --cpu-prof apps/server/dist/main.js`).
 */
import { readFileSync } from "node:fs"
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises"
import { SourceMap } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { type CallFrame, type CpuProfile, type Entry, remapFrames, summarizeProfile } from "./cpuProfile.js"
import { adminUrl, databaseUrl, dropDatabase } from "./database.js"
import { createDatabaseFor } from "./sharedReference.js"
import { runLoad } from "./driver.js"
import { repoRoot, startServer } from "./servers.js"
import type { Traffic } from "./visitors.js"

const arg = (name: string, fallback: string): string =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback

const server = arg("server", "ours")
const kind = server === "reference" || server === "lean" ? server : "ours"
const traffic: Traffic = arg("traffic", "visitors") === "one-address" ? "one-address" : "visitors"
const concurrency = Number(arg("concurrency", "64"))
const durationS = Number(arg("duration", "15"))
const warmupS = Number(arg("warmup", "3"))
const logLevel = arg("log", "info")
const topN = Number(arg("top", "25"))
const database = `forms_bench_prof_${process.pid}`

const table = (title: string, entries: ReadonlyArray<Entry>) => {
  process.stdout.write(`\n${title}\n`)
  for (const e of entries) process.stdout.write(`${e.ms.toFixed(0).padStart(8)} ms ${e.percent.toFixed(1).padStart(5)} %  ${e.name}\n`)
}

/** A frame's original source from the `.map` file beside its script (the server's bundle has them). */
const makeOriginal = () => {
  const maps = new Map<string, SourceMap | undefined>()
  const mapOf = (url: string): SourceMap | undefined => {
    if (!maps.has(url)) {
      let map: SourceMap | undefined
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, "utf8")))
      } catch {
        map = undefined
      }
      maps.set(url, map)
    }
    return maps.get(url)
  }
  return (frame: CallFrame) => {
    const map = frame.url.startsWith("file:") ? mapOf(frame.url) : undefined
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber ?? 0)
    if (entry === undefined || !("originalSource" in entry)) return undefined
    return { url: new URL(entry.originalSource, frame.url).href, lineNumber: entry.originalLine }
  }
}

/** `--analyse=<file.cpuprofile>`: the same tables for a profile taken elsewhere (no load is run). */
const analyse = async (file: string) => {
  const raw = JSON.parse(await readFile(file, "utf8")) as CpuProfile
  const summary = summarizeProfile(remapFrames(raw, makeOriginal()), topN)
  process.stdout.write(`${file}: ${summary.totalMs} ms sampled, ${summary.busyMs} ms busy\n`)
  table("self time by category", summary.byCategory)
  table("self time by function", summary.selfByFunction)
  table("self time by module", summary.selfByModule)
  table("inclusive time of our code (@forms/*)", summary.inclusiveOurs)
}

const main = async () => {
  const analysed = arg("analyse", "")
  if (analysed !== "") return analyse(analysed)
  const dir = await mkdtemp(join(tmpdir(), "forms-bench-prof-"))
  await createDatabaseFor(repoRoot, kind, database)
  try {
    const running = await startServer({
      kind,
      databaseUrl: databaseUrl(adminUrl(), database),
      logLevel,
      traffic,
      logFile: join(dir, `${kind}.log`),
      cpuProfDir: dir
    })
    let load
    try {
      load = await runLoad({
        baseUrl: running.baseUrl, concurrency, warmupMs: warmupS * 1000, durationMs: durationS * 1000,
        ...(traffic === "visitors" ? { visitors: "ipv4" as const } : {})
      })
    } finally {
      await running.stop()
    }
    const file = (await readdir(dir)).find((f) => f.endsWith(".cpuprofile"))
    if (file === undefined) throw new Error(`no .cpuprofile written in ${dir}`)
    const raw = JSON.parse(await readFile(join(dir, file), "utf8")) as CpuProfile
    const summary = summarizeProfile(remapFrames(raw, makeOriginal()), topN)
    process.stdout.write(`${kind} C=${concurrency} ${durationS}s: ${load.flows} flows (${(load.flows / durationS).toFixed(1)}/s), ` +
      `${load.errors} errors; profile ${join(dir, file)}: ${summary.totalMs} ms sampled, ${summary.busyMs} ms busy\n`)
    table("self time by category", summary.byCategory)
    table("self time by function", summary.selfByFunction)
    table("self time by module", summary.selfByModule)
    table("inclusive time of our code (@forms/*)", summary.inclusiveOurs)
    await writeFile(join(dir, "summary.json"), JSON.stringify(summary, null, 2))
    process.stdout.write(`${JSON.stringify({ server: kind, traffic, concurrency, flows_per_s: load.flows / durationS, errors: load.errors, ...summary })}\n`)
  } finally {
    await dropDatabase(database)
  }
}

main().catch(async (error: unknown) => {
  process.stderr.write(`profile failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  await dropDatabase(database).catch(() => {})
  process.exit(1)
})
