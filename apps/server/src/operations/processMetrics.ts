/**
 * The process metrics Prometheus users expect of a Node service (the names prom-client and most exporters use),
 * read at each scrape: CPU seconds, resident memory, the V8 heap, and the event loop's delay since the previous
 * scrape (Node's `monitorEventLoopDelay`, 20 ms resolution).
 */
import { Effect, Metric } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"

const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })
const gauge = (name: string, description: string) => Metric.gauge(name, { description })

const cpuUser = counter("process_cpu_user_seconds_total", "User CPU time spent, in seconds.")
const cpuSystem = counter("process_cpu_system_seconds_total", "System CPU time spent, in seconds.")
const cpuTotal = counter("process_cpu_seconds_total", "User and system CPU time spent, in seconds.")
const resident = gauge("process_resident_memory_bytes", "Resident memory size, in bytes.")
const startTime = gauge("process_start_time_seconds", "Start time of the process since the Unix epoch, in seconds.")
const heapUsed = gauge("nodejs_heap_size_used_bytes", "V8 heap in use, in bytes.")
const heapTotal = gauge("nodejs_heap_size_total_bytes", "V8 heap allocated, in bytes.")
const external = gauge("nodejs_external_memory_bytes", "Memory of C++ objects bound to JavaScript objects, in bytes.")
const lagMean = gauge("nodejs_eventloop_lag_mean_seconds", "Mean event-loop delay since the previous scrape, in seconds.")
const lagP99 = gauge("nodejs_eventloop_lag_p99_seconds", "99th percentile of the event-loop delay since the previous scrape, in seconds.")
const lagMax = gauge("nodejs_eventloop_lag_max_seconds", "Longest event-loop delay since the previous scrape, in seconds.")

export interface ProcessMetrics {
  /** Brings every process metric up to date. */
  readonly update: Effect.Effect<void>
  /** Stops the event-loop monitor. */
  readonly stop: () => void
}

export const makeProcessMetrics = (): ProcessMetrics => {
  const delay = monitorEventLoopDelay({ resolution: 20 })
  delay.enable()
  let cpu = { user: 0, system: 0 }
  const startedSeconds = (Date.now() - performance.now()) / 1000
  const update = Effect.gen(function*() {
    const now = process.cpuUsage()
    const user = Math.max(0, now.user - cpu.user) / 1e6
    const system = Math.max(0, now.system - cpu.system) / 1e6
    cpu = now
    yield* Metric.update(cpuUser, user)
    yield* Metric.update(cpuSystem, system)
    yield* Metric.update(cpuTotal, user + system)
    const memory = process.memoryUsage()
    yield* Metric.update(resident, memory.rss)
    yield* Metric.update(heapUsed, memory.heapUsed)
    yield* Metric.update(heapTotal, memory.heapTotal)
    yield* Metric.update(external, memory.external)
    yield* Metric.update(startTime, Math.round(startedSeconds))
    // No sample yet (a scrape right after the previous one): the delay is reported as 0, not NaN.
    const seconds = (nanos: number) => (Number.isFinite(nanos) ? nanos : 0) / 1e9
    yield* Metric.update(lagMean, delay.count === 0 ? 0 : seconds(delay.mean))
    yield* Metric.update(lagP99, delay.count === 0 ? 0 : seconds(delay.percentile(99)))
    yield* Metric.update(lagMax, delay.count === 0 ? 0 : seconds(delay.max))
    delay.reset()
  })
  return { update, stop: () => delay.disable() }
}
