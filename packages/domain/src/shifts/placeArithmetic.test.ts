import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { placeFor, promotions } from "./placeArithmetic.js"

const slotPlaces = fc.record({
  capacity: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
  waitlist: fc.boolean(),
  confirmed: fc.integer({ min: 0, max: 10 }),
  waiting: fc.integer({ min: 0, max: 10 })
})

describe("place arithmetic (properties)", () => {
  it("a submit is confirmed only below capacity with nobody waiting; else waitlisted on a waitlist slot, else full", () => {
    fc.assert(fc.property(slotPlaces, (slot) => {
      const outcome = placeFor(slot)
      const room = slot.capacity === null || (slot.confirmed < slot.capacity && slot.waiting === 0)
      expect(outcome).toBe(room ? "confirmed" : slot.waitlist ? "waitlisted" : "full")
    }))
  })

  it("promotion confirms the earliest waiting, never above capacity, all the room there is, none once started", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 0, max: 10 }),
      fc.array(fc.integer(), { maxLength: 12 }),
      fc.boolean(),
      (capacity, confirmed, waiting, started) => {
        const promoted = promotions(capacity, confirmed, waiting, started)
        if (started) {
          expect(promoted).toEqual([])
        } else {
          expect(promoted).toEqual(waiting.slice(0, promoted.length))
          expect(confirmed + promoted.length).toBeLessThanOrEqual(Math.max(capacity, confirmed))
          // Either the slot is full again or nobody is left waiting.
          expect(confirmed + promoted.length >= capacity || promoted.length === waiting.length).toBe(true)
        }
      }
    ))
  })

  it("a run of submits then frees: confirmed never above capacity, the waitlist served in order of joining", () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.oneof(fc.constant("submit" as const), fc.constant("free" as const)), { maxLength: 40 }),
      (capacity, steps) => {
        let next = 0
        const confirmed: Array<number> = []
        const waiting: Array<number> = []
        const order: Array<number> = []
        for (const step of steps) {
          if (step === "submit") {
            const id = next++
            const outcome = placeFor({ capacity, waitlist: true, confirmed: confirmed.length, waiting: waiting.length })
            if (outcome === "confirmed") confirmed.push(id)
            else waiting.push(id)
          } else if (confirmed.length > 0) {
            confirmed.shift()
            const promoted = promotions(capacity, confirmed.length, waiting, false)
            waiting.splice(0, promoted.length)
            confirmed.push(...promoted)
            order.push(...promoted)
          }
          expect(confirmed.length).toBeLessThanOrEqual(capacity)
          // Nobody waits while there is room.
          expect(waiting.length === 0 || confirmed.length === capacity).toBe(true)
        }
        expect(order).toEqual([...order].sort((a, b) => a - b))
      }
    ))
  })
})
