/** Percentiles, medians and ratios of the load benchmark: pure functions, unit-tested. */

/**
 * The p-th percentile (0–100) by the nearest-rank method on an ascending array: the smallest value
 * with at least p% of the samples at or below it. NaN for no samples.
 */
export const percentileSorted = (sorted: ArrayLike<number>, p: number): number => {
  const n = sorted.length
  if (n === 0) return Number.NaN
  if (p <= 0) return sorted[0] ?? Number.NaN
  const rank = Math.min(n, Math.ceil((p / 100) * n))
  return sorted[rank - 1] ?? Number.NaN
}

/** The p-th percentile of samples in any order (the input is not changed). */
export const percentile = (samples: ArrayLike<number>, p: number): number =>
  percentileSorted(Float64Array.from(samples).sort(), p)

/** The median: the middle value, or the mean of the two middle ones; NaN for none. */
export const median = (values: ReadonlyArray<number>): number => {
  const finite = values.filter((v) => !Number.isNaN(v))
  if (finite.length === 0) return Number.NaN
  const sorted = [...finite].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  const hi = sorted[mid] ?? Number.NaN
  return sorted.length % 2 === 1 ? hi : ((sorted[mid - 1] ?? Number.NaN) + hi) / 2
}

/** ours / reference; NaN when the reference is zero or missing. */
export const ratio = (ours: number, reference: number): number =>
  reference === 0 || !Number.isFinite(reference) ? Number.NaN : ours / reference

export interface LatencySummary {
  readonly count: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
  readonly mean: number
}

/** Latencies in milliseconds summarised; the samples array is sorted in place (it is the caller's copy). */
export const summarize = (samples: Float64Array | Array<number>): LatencySummary => {
  const sorted = samples instanceof Float64Array ? samples.sort() : Float64Array.from(samples).sort()
  let sum = 0
  for (const v of sorted) sum += v
  return {
    count: sorted.length,
    p50: percentileSorted(sorted, 50),
    p95: percentileSorted(sorted, 95),
    p99: percentileSorted(sorted, 99),
    max: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] ?? Number.NaN),
    mean: sorted.length === 0 ? Number.NaN : sum / sorted.length
  }
}

/** A growable buffer of samples without boxing every number. */
export class Samples {
  private data = new Float64Array(4096)
  private n = 0

  push(value: number): void {
    if (this.n === this.data.length) {
      const bigger = new Float64Array(this.data.length * 2)
      bigger.set(this.data)
      this.data = bigger
    }
    this.data[this.n++] = value
  }

  get length(): number {
    return this.n
  }

  /** A copy of the samples taken so far. */
  values(): Float64Array {
    return this.data.slice(0, this.n)
  }
}

/** Rounds for printing and for the JSON line (NaN and infinities become null in JSON anyway). */
export const round = (value: number, digits = 2): number => {
  const f = 10 ** digits
  return Math.round(value * f) / f
}
