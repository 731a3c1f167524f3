/**
 * Event-loop lag and request times, with a second opinion for busy machines: when other processes
 * hold the CPUs, a late timer says little about our own code, so the CPU time this process used in
 * the same interval bounds how long our own code can have blocked.
 */
import { availableParallelism, loadavg } from "node:os"
import { monitorEventLoopDelay } from "node:perf_hooks"

/** More runnable processes than cores (1-minute load average): wall times include waiting for a CPU. */
export const contended = (): boolean => (loadavg()[0] ?? 0) > availableParallelism()

export const machine = (): string =>
  `load average ${(loadavg()[0] ?? 0).toFixed(1)} on ${availableParallelism()} cores`

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

export interface LagReport {
  /** monitorEventLoopDelay's maximum. */
  readonly maxMs: number
  readonly p99Ms: number
  /** The largest timer delay, each bounded by the CPU time the process used meanwhile. */
  readonly ownMaxMs: number
}

export const makeLagMonitor = () => {
  const histogram = monitorEventLoopDelay({ resolution: 10 })
  let timer: NodeJS.Timeout | undefined
  let ownMaxMs = 0
  return {
    start: () => {
      histogram.enable()
      let last = performance.now()
      let lastCpu = cpuMs()
      timer = setInterval(() => {
        const now = performance.now()
        const cpu = cpuMs()
        ownMaxMs = Math.max(ownMaxMs, Math.min(now - last - 10, cpu - lastCpu))
        last = now
        lastCpu = cpu
      }, 10)
    },
    stop: (): LagReport => {
      histogram.disable()
      if (timer !== undefined) clearInterval(timer)
      return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6, ownMaxMs }
    }
  }
}

/** Wall time of `task`, and the CPU time the process used meanwhile. */
export const timed = async <A>(task: () => Promise<A>): Promise<{ readonly value: A; readonly ms: number; readonly cpuMs: number }> => {
  const started = performance.now()
  const startedCpu = cpuMs()
  const value = await task()
  return { value, ms: performance.now() - started, cpuMs: cpuMs() - startedCpu }
}
