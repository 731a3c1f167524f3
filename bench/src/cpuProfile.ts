/** Reading a V8 `.cpuprofile`: self time per function, per package or module, and inclusive time of our own code. */

export interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber?: number
}
interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: ReadonlyArray<number>
}
export interface CpuProfile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

export interface Entry {
  readonly name: string
  readonly ms: number
  readonly percent: number
}

/** Where a frame's code lives: a package (subdivided for effect), our workspace package, node, or V8. */
export const moduleOf = (frame: CallFrame): string => {
  const { url, functionName } = frame
  if (url === "") return functionName.startsWith("(") ? functionName : "(V8 builtins and native)"
  if (url.startsWith("node:")) {
    const path = url.slice(5).replace(/^internal\//, "")
    return `node:${path.split("/")[0]?.replace(/\.js$/, "") ?? path}`
  }
  const pkg = /^.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url)
  if (pkg !== null) {
    const [, name = "", rest = ""] = pkg
    if (name === "effect") {
      const file = rest.replace(/^(dist|src)\//, "").replace(/\.(js|ts)$/, "")
      return `effect/${file.split("/").slice(0, 2).join("/")}`
    }
    return name
  }
  const ours = /\/(packages|apps)\/([^/]+)\//.exec(url)
  if (ours !== null) return `@forms/${ours[2] ?? ""}`
  return url
}

const label = (frame: CallFrame): string => {
  const file = frame.url.replace(/^.*\/node_modules\//, "").replace(/^file:\/\/.*\/(packages|apps)\//, "$1/")
  return `${frame.functionName === "" ? "(anonymous)" : frame.functionName} ${file}:${frame.lineNumber + 1}`
}

const top = (totals: Map<string, number>, all: number, n: number): Array<Entry> =>
  [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, percent: Math.round((us / all) * 1000) / 10 }))

/**
 * The category of a sample's leaf frame (self time). With Effect, the whole stack is a poor guide:
 * code that runs after a query answers sits on the driver's socket callback, so only the leaf says
 * where the time went.
 */
export const categoryOf = (frame: CallFrame): string => {
  const m = moduleOf(frame)
  const name = frame.functionName
  if (frame.url === "") {
    if (["writeBuffer", "writev", "writeUtf8String", "writeLatin1String"].includes(name)) {
      return "socket write syscalls (incl. time preempted in them)"
    }
    if (name === "(idle)" || name === "(garbage collector)" || name === "(program)") return name
    if (name === "compileSourceTextModule" || name === "internalModuleStat") return "start-up (module loading)"
    if (name === "consoleCall") return "logging"
    if (name === "parse" || name === "stringify") return "JSON parse/stringify"
    return "V8 builtins (other)"
  }
  if (m === "node:modules" || m === "node:bootstrap") return "start-up (module loading)"
  if (/^effect\/(Schema|internal\/schema)/.test(m)) return "Schema decode/encode (effect/Schema*)"
  if (m === "@effect/sql-pg" || m.startsWith("effect/sql") || m === "effect/Pool" || m === "postgres") {
    return "SQL client (driver, effect/sql, pool)"
  }
  if (/^effect\/(Logger|Formatter)/.test(m) || m === "node:console" || m === "node:fs") return "logging"
  if (/^effect\/(http|http-api)/.test(m) || m === "@effect/platform-node" || /^node:_http/.test(m)) return "HTTP server and router"
  if (/^node:(net|streams|stream_base_commons|buffer|events|timers|async_hooks|process)/.test(m)) return "node net/streams/timers"
  if (m.startsWith("effect/")) return "effect runtime (fibers, context, spans, data types)"
  if (m === "@forms/domain" || m === "re2js") return "@forms/domain (use cases, validation, re2js)"
  if (m.startsWith("@forms/")) return m
  if (frame.url.includes("forms-bench-reference-")) return "reference server code"
  if (m.startsWith("node:")) return "node other"
  return "other"
}

/**
 * The profile with each frame moved to its original source, where `original` knows it (a bundle's source
 * map): the server's bundle holds effect, the driver and our packages in a few chunks, so without this
 * every frame of them belongs to `@forms/server`.
 */
export const remapFrames = (
  profile: CpuProfile,
  original: (frame: CallFrame) => { readonly url: string; readonly lineNumber: number } | undefined
): CpuProfile => ({
  ...profile,
  nodes: profile.nodes.map((node) => {
    const found = original(node.callFrame)
    return found === undefined ? node : { ...node, callFrame: { ...node.callFrame, ...found } }
  })
})

/** Self time per category of the leaf frame. */
export const byCategory = (profile: CpuProfile): Array<Entry> => {
  const frames = new Map<number, CallFrame>()
  for (const node of profile.nodes) frames.set(node.id, node.callFrame)
  const totals = new Map<string, number>()
  let all = 0
  profile.samples.forEach((id, i) => {
    const dt = Math.max(0, profile.timeDeltas[i] ?? 0)
    all += dt
    const frame = frames.get(id)
    const category = frame === undefined ? "other" : categoryOf(frame)
    totals.set(category, (totals.get(category) ?? 0) + dt)
  })
  return top(totals, all, 50)
}

export interface ProfileSummary {
  readonly totalMs: number
  /** Time not idle (what the server spent working). */
  readonly busyMs: number
  readonly selfByFunction: ReadonlyArray<Entry>
  readonly selfByModule: ReadonlyArray<Entry>
  /** Inclusive time of frames in our workspace packages (a frame counted once per sample). */
  readonly inclusiveOurs: ReadonlyArray<Entry>
  readonly byCategory: ReadonlyArray<Entry>
}

export const summarizeProfile = (profile: CpuProfile, n = 25): ProfileSummary => {
  const byId = new Map<number, ProfileNode>()
  const parent = new Map<number, number>()
  for (const node of profile.nodes) {
    byId.set(node.id, node)
    for (const child of node.children ?? []) parent.set(child, node.id)
  }
  const selfNode = new Map<number, number>()
  let totalUs = 0
  profile.samples.forEach((id, i) => {
    const dt = Math.max(0, profile.timeDeltas[i] ?? 0)
    totalUs += dt
    selfNode.set(id, (selfNode.get(id) ?? 0) + dt)
  })
  const byFunction = new Map<string, number>()
  const byModule = new Map<string, number>()
  let idleUs = 0
  for (const [id, us] of selfNode) {
    const frame = byId.get(id)?.callFrame
    if (frame === undefined) continue
    if (frame.functionName === "(idle)") idleUs += us
    byFunction.set(label(frame), (byFunction.get(label(frame)) ?? 0) + us)
    byModule.set(moduleOf(frame), (byModule.get(moduleOf(frame)) ?? 0) + us)
  }
  const inclusive = new Map<string, number>()
  for (const [id, us] of selfNode) {
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame
      if (frame === undefined || !moduleOf(frame).startsWith("@forms/")) continue
      const name = label(frame)
      if (seen.has(name)) continue
      seen.add(name)
      inclusive.set(name, (inclusive.get(name) ?? 0) + us)
    }
  }
  return {
    totalMs: Math.round(totalUs / 1000),
    busyMs: Math.round((totalUs - idleUs) / 1000),
    selfByFunction: top(byFunction, totalUs, n),
    selfByModule: top(byModule, totalUs, n),
    inclusiveOurs: top(inclusive, totalUs, n),
    byCategory: byCategory(profile)
  }
}
