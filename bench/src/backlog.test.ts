import { describe, expect, it } from "vitest"
import { withBacklog } from "./backlog.js"

const drain = { events: 100, cpuMs: 200, dbCpuMs: 300, ms: 2_000, complete: true }

describe("the window's CPU with the event delivery it left behind", () => {
  it("adds the drain's cost per event for each event the backlog grew by", () => {
    expect(withBacklog({ cpuMs: 1_000, dbCpuMs: 500 }, { atOpen: 10, atClose: 60 }, drain)).toEqual({ cpuMs: 1_100, dbCpuMs: 650 })
  })

  it("takes off the cost of a warm-up backlog the window caught up with, and changes nothing for a steady one", () => {
    expect(withBacklog({ cpuMs: 1_000, dbCpuMs: 500 }, { atOpen: 60, atClose: 10 }, drain)).toEqual({ cpuMs: 900, dbCpuMs: 350 })
    expect(withBacklog({ cpuMs: 1_000, dbCpuMs: 500 }, { atOpen: 30, atClose: 30 }, drain)).toEqual({ cpuMs: 1_000, dbCpuMs: 500 })
  })

  it("is the window alone when nothing was left to deliver", () => {
    expect(withBacklog({ cpuMs: 1_000, dbCpuMs: 500 }, { atOpen: 0, atClose: 0 }, { ...drain, events: 0 }))
      .toEqual({ cpuMs: 1_000, dbCpuMs: 500 })
  })
})
