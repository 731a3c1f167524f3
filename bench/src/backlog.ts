/**
 * Event delivery left behind by a measured window. Ours and the same-job reference deliver the events of
 * their submits in the background; a server that falls behind ends the window with more undelivered
 * events than it started with, and the CPU of delivering the difference would be missing from its CPU
 * per flow (a server that catches up did extra work in the window, for events of the warm-up).
 *
 * So: the backlog is counted when the window opens and closes; after the load has stopped, the
 * remaining backlog is delivered while node and database CPU are measured (the drain), which gives a
 * cost per event; the window's figures get (backlog at close − backlog at open) × that cost. The
 * flows still in flight after the window are not in the drain: it starts when the load has stopped.
 */
import { openCpuWindow, openDbCpuWindow } from "./cpu.js"
import { pendingEvents } from "./database.js"

export interface DrainMeasure {
  /** Undelivered events when the load stopped, and the CPU of delivering them all. */
  readonly events: number
  readonly cpuMs: number
  readonly dbCpuMs: number
  readonly ms: number
  /** false when the outbox was not empty after the time limit. */
  readonly complete: boolean
}

/** Waits until the database's outbox has nothing to deliver (at most `limitMs`), measuring the server's CPU meanwhile. */
export const drainOutbox = async (
  pid: number,
  adminUrl: string,
  database: string,
  url: string,
  limitMs = 60_000
): Promise<DrainMeasure> => {
  const events = await pendingEvents(url)
  const started = performance.now()
  const cpu = openCpuWindow(pid)
  const db = openDbCpuWindow(adminUrl, database)
  let left = events
  while (left > 0 && performance.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    left = await pendingEvents(url)
  }
  return { events, cpuMs: cpu().serverCpuMs, dbCpuMs: await db(), ms: performance.now() - started, complete: left === 0 }
}

/**
 * The window's CPU with the delivery it left behind: + (backlog at close − backlog at open) × the drain's
 * cost per event (negative when the window caught up with a backlog of the warm-up). Unchanged when
 * nothing was left to drain.
 */
export const withBacklog = (
  window: { readonly cpuMs: number; readonly dbCpuMs: number },
  backlog: { readonly atOpen: number; readonly atClose: number },
  drain: DrainMeasure
): { readonly cpuMs: number; readonly dbCpuMs: number } => {
  if (drain.events === 0) return window
  const events = backlog.atClose - backlog.atOpen
  return {
    cpuMs: window.cpuMs + (events * drain.cpuMs) / drain.events,
    dbCpuMs: window.dbCpuMs + (events * drain.dbCpuMs) / drain.events
  }
}
