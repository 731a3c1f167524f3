import { describe, expect, it } from "vitest"
import { median, percentile, percentileSorted, ratio, Samples, summarize } from "./stats.js"

describe("percentile", () => {
  it("takes the nearest rank of the sorted samples", () => {
    const values = [15, 20, 35, 40, 50]
    expect(percentile(values, 5)).toBe(15)
    expect(percentile(values, 30)).toBe(20)
    expect(percentile(values, 40)).toBe(20)
    expect(percentile(values, 50)).toBe(35)
    expect(percentile(values, 100)).toBe(50)
  })

  it("does not depend on the order of the samples and leaves them as they were", () => {
    const values = [9, 1, 8, 2, 7, 3, 6, 4, 5, 10]
    expect(percentile(values, 95)).toBe(10)
    expect(percentile(values, 50)).toBe(5)
    expect(values[0]).toBe(9)
  })

  it("gives p99 of 1..1000 as 990 and NaN for no samples", () => {
    const values = Array.from({ length: 1000 }, (_, i) => i + 1)
    expect(percentile(values, 99)).toBe(990)
    expect(percentileSorted([], 50)).toBeNaN()
  })
})

describe("median", () => {
  it("is the middle value of an odd count and the mean of the middle two of an even count", () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([0.7])).toBe(0.7)
  })

  it("ignores NaN and is NaN for nothing", () => {
    expect(median([Number.NaN, 1, 3])).toBe(2)
    expect(median([])).toBeNaN()
  })
})

describe("summaries", () => {
  it("summarize gives count, percentiles, max and mean", () => {
    const s = summarize([4, 1, 3, 2])
    expect(s).toEqual({ count: 4, p50: 2, p95: 4, p99: 4, max: 4, mean: 2.5 })
  })

  it("Samples grows past its first buffer and hands back a copy", () => {
    const samples = new Samples()
    for (let i = 0; i < 10_000; i++) samples.push(i)
    expect(samples.length).toBe(10_000)
    const copy = samples.values()
    copy[0] = 42
    expect(samples.values()[0]).toBe(0)
    expect(summarize(copy).max).toBe(9999)
  })

  it("ratio is ours over the reference, NaN without a reference", () => {
    expect(ratio(70, 100)).toBeCloseTo(0.7)
    expect(ratio(1, 0)).toBeNaN()
  })
})
