/**
 * CPU accounting from /proc (Linux): a process's user+system time, and the whole machine's busy share,
 * so that a run can report CPU per flow and how loaded the (shared, 2-core) machine was.
 */
import { readFileSync } from "node:fs"
import { loadavg } from "node:os"
import postgres from "postgres"

/** Clock ticks per second of /proc times (USER_HZ): 100 on Linux. */
const ticksPerSecond = 100

/** User + system CPU of a process in milliseconds, or NaN once it is gone. */
export const processCpuMs = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name (which may hold spaces) start at the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const utime = Number(fields[11])
    const stime = Number(fields[12])
    return ((utime + stime) * 1000) / ticksPerSecond
  } catch {
    return Number.NaN
  }
}

/** Busy and total ticks of all cores together since boot. */
export const machineTicks = (): { busy: number; total: number } => {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? ""
    const values = line.trim().split(/\s+/).slice(1).map(Number)
    const total = values.reduce((a, b) => a + b, 0)
    const idle = (values[3] ?? 0) + (values[4] ?? 0)
    return { busy: total - idle, total }
  } catch {
    return { busy: Number.NaN, total: Number.NaN }
  }
}

export interface CpuWindow {
  /** The server's CPU time in the window, milliseconds. */
  readonly serverCpuMs: number
  /** Share of all cores busy in the window (everything on the machine), percent. */
  readonly machineBusyPct: number
  /** 1-minute load average when the window opened. */
  readonly loadAvg1: number
}

/** Opens a window now; closing it gives the CPU figures between the two instants. */
export const openCpuWindow = (pid: number): (() => CpuWindow) => {
  const cpu0 = processCpuMs(pid)
  const m0 = machineTicks()
  const load = loadavg()[0] ?? Number.NaN
  return () => {
    const m1 = machineTicks()
    return {
      serverCpuMs: processCpuMs(pid) - cpu0,
      machineBusyPct: ((m1.busy - m0.busy) / Math.max(1, m1.total - m0.total)) * 100,
      loadAvg1: load
    }
  }
}

/**
 * CPU of the PostgreSQL backends serving one database (the server's pools), summed from /proc. Taken
 * through the admin connection, so the query itself is not counted. The backends are listed again every
 * `sampleMs` while the window is open, because a pool opens and closes connections as its load changes
 * (ours shares connections, so it opens more only as more statements wait): a backend that appears
 * counts from its start (CPU 0), one that ends counts up to its last sample. WAL writer and checkpointer
 * are shared by every database and left out.
 */
export const openDbCpuWindow = (adminUrl: string, database: string, sampleMs = 250): (() => Promise<number>) => {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} })
  const first = new Map<number, number>()
  const last = new Map<number, number>()
  let opening = true
  const sample = async () => {
    const rows = await sql<Array<{ pid: number }>>`SELECT pid FROM pg_stat_activity WHERE datname = ${database}`
    for (const { pid } of rows) {
      const cpu = processCpuMs(pid)
      if (Number.isNaN(cpu)) continue
      if (!first.has(pid)) first.set(pid, opening ? cpu : 0)
      last.set(pid, cpu)
    }
    opening = false
  }
  const started = sample()
  const timer = setInterval(() => void started.then(sample).catch(() => {}), sampleMs)
  return async () => {
    clearInterval(timer)
    try {
      await started
      await sample()
    } finally {
      await sql.end({ timeout: 5 })
    }
    let total = 0
    for (const [pid, at] of first) total += (last.get(pid) ?? at) - at
    return total
  }
}
