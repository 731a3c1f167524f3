import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import { slotIdsOf } from "../rules/SlotChoice.js"
import type { ChosenSlot } from "./RegistrationData.js"
import { checkSlotChoice, checkSlotChoices, chosenSlotIds, isFormSlot, mergeFieldErrors } from "./slotChoices.js"
import { slotInstants } from "./slotInstants.js"

/** A slot in UTC, its instants computed from the times given. */
const slot = (id: string, over: Partial<ChosenSlot> = {}): ChosenSlot => {
  const times = { date: "2027-09-01", start_time: "08:00", end_time: "12:00", ...over }
  const instants = slotInstants(times, "UTC")
  if (instants === undefined) throw new Error(`unreadable ${JSON.stringify(times)}`)
  return {
    id,
    name: `Slot ${id}`,
    event_id: "fest",
    parent_event_id: null,
    capacity: null,
    holders: 0,
    signup_opens_at: null,
    signup_closes_at: null,
    waitlist: false,
    waitlisted: 0,
    ...over,
    ...times,
    ...instants
  }
}

const slots = [
  slot("a"),
  slot("b", { event_id: "day", parent_event_id: "fest", start_time: "12:00", end_time: "16:00", capacity: 2, holders: 2 }),
  slot("c", { event_id: "day", parent_event_id: "fest", start_time: "10:00", end_time: "14:00" }),
  slot("night", { start_time: "22:00", end_time: "02:00", capacity: 1, holders: 0 }),
  slot("early", { date: "2027-09-02", start_time: "01:00", end_time: "03:00" }),
  slot("other", { event_id: "elsewhere" })
]
const byId = new Map(slots.map((s) => [s.id, s]))
/** Before every slot's start, with no window set: sign-up is open. */
const now = Date.parse("2027-01-01T00:00:00Z")
const choice = (ids: ReadonlyArray<string>, min = -Infinity, max = Infinity) => ({ slug: "shifts", ids, min, max })
const rules = (ids: ReadonlyArray<string>, full: "none" | "read" | "taken" = "none", min = -Infinity, max = Infinity) =>
  checkSlotChoice(choice(ids, min, max), byId, "fest", full, now)?.map((e) => e.rule)

describe("slotIdsOf (the shape rule of a time_slots value)", () => {
  it.each([
    ["a single string is one id", " a ", ["a"]],
    ["an array of strings", ["a", "b"], ["a", "b"]],
    ["an id given twice (after trimming)", ["a", " a"], undefined],
    ["a number", 3, undefined],
    ["an array with a number", ["a", 3], undefined],
    ["an array with an empty string", ["a", " "], undefined],
    ["an object", { a: 1 }, undefined],
    ["a boolean", true, undefined]
  ])("%s", (_, value, expected) => {
    expect(slotIdsOf(value)).toEqual(expected)
  })
})

describe("checkSlotChoice (CONTRACT §15: in, min, max, overlap, full)", () => {
  it("slots of the form's event and its child events are in; others and unknown ids are not", () => {
    expect(rules(["a", "b"])).toBeUndefined()
    expect(rules(["other"])).toEqual(["in"])
    expect(rules(["nope"])).toEqual(["in"])
    expect(isFormSlot(null, slot("a"))).toBe(false)
    // A form of the child event lists its own slots only.
    expect(checkSlotChoice(choice(["b"]), byId, "day", "none", now)).toBeUndefined()
    expect(checkSlotChoice(choice(["a"]), byId, "day", "none", now)?.map((e) => e.rule)).toEqual(["in"])
  })

  it("counts slots against min and max", () => {
    expect(rules(["a"], "none", 2)).toEqual(["min"])
    expect(rules(["a", "b", "early"], "none", 1, 2)).toEqual(["max"])
    expect(rules(["a", "b"], "none", 2, 2)).toBeUndefined()
  })

  it("overlap across child events and past midnight; touching slots do not overlap", () => {
    expect(rules(["a", "c"])).toEqual(["overlap"])
    expect(rules(["c", "b"])).toEqual(["overlap"])
    expect(rules(["a", "b"])).toBeUndefined()
    expect(rules(["night", "early"])).toEqual(["overlap"])
  })

  it("reports the rules in order, and full only when every other rule passed", () => {
    expect(rules(["nope", "a", "c"], "read", 5, 2)).toEqual(["in", "min", "max", "overlap"])
    expect(rules(["b"], "read")).toEqual(["full"])
    expect(rules(["b", "c"], "read")).toEqual(["overlap"])
    expect(rules(["b"], "none")).toBeUndefined()
  })

  it("full: on holders read, no place left; on places taken, more holders than capacity", () => {
    expect(rules(["night"], "read")).toBeUndefined()
    const taken = new Map(byId).set("night", { ...slot("night"), capacity: 1, holders: 1 })
    expect(checkSlotChoice(choice(["night"]), taken, "fest", "taken", now)).toBeUndefined()
    taken.set("night", { ...slot("night"), capacity: 1, holders: 2 })
    expect(checkSlotChoice(choice(["night"]), taken, "fest", "taken", now)?.map((e) => e.rule)).toEqual(["full"])
    // Capacity lowered below the holders: still full, never negative.
    expect(checkSlotChoice(choice(["night"]), new Map([["night", { ...slot("night"), capacity: 1, holders: 5 }]]), "fest", "read", now)?.[0]?.rule).toBe("full")
  })

  it("the full message names each full slot as `<name> <date> <start>–<end>`, in the order slots are listed", () => {
    expect(checkSlotChoice(choice(["b"]), byId, "fest", "read", now)).toEqual([
      { rule: "full", message: "The time slot Slot b 2027-09-01 12:00\u201316:00 has no place left." }
    ])
    const full = new Map([
      ["late", slot("late", { name: "Bar", start_time: "18:00:00", end_time: "22:00:00", capacity: 1, holders: 1 })],
      ["first", slot("first", { name: "Gate", date: "2027-08-31", capacity: 2, holders: 2 })],
      ["open", slot("open", { name: "Camp", start_time: "12:00", end_time: "14:00" })],
      ["mid", slot("mid", { name: "Info", start_time: "14:00", end_time: "16:00", capacity: 1, holders: 3 })]
    ])
    expect(checkSlotChoice(choice(["late", "open", "mid", "first"]), full, "fest", "read", now)?.[0]?.message).toBe(
      "The time slots Gate 2027-08-31 08:00\u201312:00, Info 2027-09-01 14:00\u201316:00 and Bar 2027-09-01 18:00\u201322:00 " +
        "have no place left."
    )
  })

  it("checkSlotChoices keys errors by slug; chosenSlotIds is distinct and in code-unit order", () => {
    const errors = checkSlotChoices([choice(["a"]), { ...choice(["other"]), slug: "second" }], slots, "fest", "none", now)
    expect(errors === undefined ? undefined : Object.keys(errors)).toEqual(["second"])
    expect(chosenSlotIds([choice(["b", "a"]), choice(["a", "B"])])).toEqual(["B", "a", "b"])
  })

  it("mergeFieldErrors keeps field order and puts a field's extra errors after its own", () => {
    const merged = mergeFieldErrors(
      ["email", "shifts"],
      { shifts: [{ rule: "required", message: "r" }], email: [{ rule: "email", message: "e" }] },
      { shifts: [{ rule: "full", message: "f" }] }
    )
    expect(merged === undefined ? undefined : Object.entries(merged).map(([k, v]) => [k, v.map((e) => e.rule)])).toEqual([
      ["email", ["email"]],
      ["shifts", ["required", "full"]]
    ])
  })
})

describe("sign-up windows (CONTRACT §22 closed)", () => {
  const at = (iso: string) => Date.parse(iso)
  const windowed = slot("w", { signup_opens_at: at("2027-06-01T00:00:00Z"), signup_closes_at: at("2027-08-01T00:00:00Z") })
  const open = slot("o")
  const map = new Map([["w", windowed], ["o", open], ["b", { ...(slots[1] as ChosenSlot), holders: 3 }]])
  const rulesAt = (ids: ReadonlyArray<string>, when: string, min = -Infinity, max = Infinity) =>
    checkSlotChoice(choice(ids, min, max), map, "fest", "taken", at(when))?.map((e) => e.rule)

  it("closed before the window opens and from its close on; open in between (half-open)", () => {
    expect(rulesAt(["w"], "2027-05-31T23:59:59Z")).toEqual(["closed"])
    expect(rulesAt(["w"], "2027-06-01T00:00:00Z")).toBeUndefined()
    expect(rulesAt(["w"], "2027-07-31T23:59:59Z")).toBeUndefined()
    expect(rulesAt(["w"], "2027-08-01T00:00:00Z")).toEqual(["closed"])
  })

  it("without a close, sign-up closes when the slot starts", () => {
    expect(rulesAt(["o"], "2027-09-01T07:59:59Z")).toBeUndefined()
    expect(rulesAt(["o"], "2027-09-01T08:00:00Z")).toEqual(["closed"])
  })

  it("closed comes after in and before min, max and overlap, all reported; full waits for the others", () => {
    expect(rulesAt(["nope", "w", "o"], "2027-05-01T00:00:00Z", 5, 1)).toEqual(["in", "closed", "min", "max", "overlap"])
    // "b" is full (2 of 2 taken, this submission counted): full is not reported beside closed.
    expect(rulesAt(["w", "b"], "2027-05-01T00:00:00Z")).toEqual(["closed"])
  })
})

describe("slot rules, properties", () => {
  const hhmm = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30)).map(([h, m]) =>
    `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`
  )
  const arbitrarySlots = fc.array(
    fc.record({ day: fc.integer({ min: 1, max: 3 }), start_time: hhmm, end_time: hhmm, capacity: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }), holders: fc.integer({ min: 0, max: 4 }) }),
    { minLength: 1, maxLength: 6 }
  ).map((list) => list.map((s, i) => slot(`s${i}`, { ...s, date: `2027-09-0${s.day}` })))

  it("the errors do not depend on the order the slots are chosen in", () => {
    fc.assert(fc.property(arbitrarySlots, fc.constantFrom("none", "read", "taken" as const), (list, full) => {
      const map = new Map(list.map((s) => [s.id, s]))
      const ids = list.map((s) => s.id)
      const forward = checkSlotChoice(choice(ids), map, "fest", full, now)
      const backward = checkSlotChoice(choice([...ids].reverse()), map, "fest", full, now)
      expect(backward).toEqual(forward)
    }))
  })

  it("a slot and the slot that starts when it ends never overlap; a slot and a copy of it always do", () => {
    fc.assert(fc.property(arbitrarySlots, (list) => {
      const first = list[0] as ChosenSlot
      const next = slot("next", { date: first.date, start_time: first.end_time, end_time: first.end_time })
      // `next` starts the day `first` ends on: the same date unless `first` runs past midnight.
      const crosses = first.end_time <= first.start_time
      const touching = crosses ? { ...next, date: `2027-09-0${Number(first.date.slice(-1)) + 1}` } : next
      const nextEnd = slot("next", {
        date: touching.date,
        start_time: touching.start_time,
        end_time: touching.start_time === "23:30" ? "23:45" : "23:59"
      })
      const map = new Map([[first.id, first], [nextEnd.id, nextEnd], ["copy", { ...first, id: "copy" }]])
      const overlapOf = (ids: ReadonlyArray<string>) =>
        (checkSlotChoice(choice(ids), map, "fest", "none", now) ?? []).some((e) => e.rule === "overlap")
      if (nextEnd.start_time < nextEnd.end_time) expect(overlapOf([first.id, nextEnd.id])).toBe(false)
      expect(overlapOf([first.id, "copy"])).toBe(true)
    }))
  })
})
