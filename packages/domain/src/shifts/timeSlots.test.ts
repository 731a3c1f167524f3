import { describe, expect, it } from "@effect/vitest"
import type { EventRecord, SlotAvailability } from "./RegistrationData.js"
import { slotInstants } from "./slotInstants.js"
import { festivalEventIds, toTimeSlots } from "./timeSlots.js"

const events: ReadonlyArray<EventRecord> = [
  { id: "fest", name: "Festival", parent_event_id: null },
  { id: "day1", name: "Friday", parent_event_id: "fest" },
  { id: "day2", name: "Saturday", parent_event_id: "fest" }
]

describe("festivalEventIds", () => {
  it("a top-level event lists itself and its direct children", () => {
    expect(festivalEventIds("fest", events)).toEqual(["fest", "day1", "day2"])
  })

  it("a child event lists its own slots only, whatever children it has", () => {
    const tree: ReadonlyArray<EventRecord> = [
      { id: "day1", name: "Friday", parent_event_id: "fest" },
      { id: "night", name: "Night", parent_event_id: "day1" }
    ]
    expect(festivalEventIds("day1", tree)).toEqual(["day1"])
  })

  it("an unknown event lists nothing", () => {
    expect(festivalEventIds("nope", [])).toEqual([])
  })
})

describe("toTimeSlots", () => {
  const slot = (id: string, event_id: string, name: string, date: string, start_time: string, end_time: string): SlotAvailability => ({
    id,
    event_id,
    name,
    date,
    start_time,
    end_time,
    ...(slotInstants({ date, start_time, end_time }, "Europe/Amsterdam") ?? { starts_at: 0, ends_at: 0 }),
    signup_opens_at: null,
    signup_closes_at: null,
    waitlist: false,
    waitlisted: 0,
    capacity: null,
    holders: 0
  })

  it("sorts by date, start time, name, then id, with plain code-unit order", () => {
    const slots = [
      slot("s-5", "day2", "b", "2027-08-21", "08:00", "09:00"),
      slot("s-4", "day1", "Bar", "2027-08-20", "08:00", "09:00"),
      slot("s-3", "day1", "bar", "2027-08-20", "08:00", "09:00"),
      slot("s-2", "day1", "Gate", "2027-08-20", "06:00", "06:00"),
      slot("s-1", "day1", "Gate", "2027-08-20", "06:00", "06:00"),
      slot("s-0", "fest", "Zeta", "2027-08-19", "22:00", "02:00"),
      slot("s-6", "day1", "Éclair", "2027-08-20", "08:00", "09:00")
    ]
    expect(toTimeSlots(slots, events).map((s) => s.id)).toEqual(["s-0", "s-1", "s-2", "s-4", "s-3", "s-6", "s-5"])
  })

  it("writes the resource with HH:MM times, the duration and the event's name", () => {
    expect(toTimeSlots([slot("s-1", "day1", "Setup", "2027-08-20", "22:00:00", "02:00:00")], events)).toEqual([
      {
        id: "s-1",
        name: "Setup",
        date: "2027-08-20",
        start_time: "22:00",
        end_time: "02:00",
        starts_at: Date.parse("2027-08-20T20:00:00Z"),
        ends_at: Date.parse("2027-08-21T00:00:00Z"),
        duration_hours: 4,
        signup_opens_at: null,
        signup_closes_at: null,
        event_id: "day1",
        event_name: "Friday",
        capacity: null,
        remaining: null,
        waitlist: false,
        waitlisted: 0
      }
    ])
  })

  it("adds capacity and remaining: capacity minus holders, never below 0, null when unlimited", () => {
    const base = slot("s-1", "day1", "Setup", "2027-08-20", "08:00", "12:00")
    const listed = toTimeSlots([
      { ...base, id: "a", capacity: 7, holders: 3 },
      { ...base, id: "b", capacity: 2, holders: 5 },
      { ...base, id: "c", capacity: null, holders: 40 }
    ], events)
    expect(listed.map((s) => [s.id, s.capacity, s.remaining])).toEqual([["a", 7, 4], ["b", 2, 0], ["c", null, null]])
  })
})
