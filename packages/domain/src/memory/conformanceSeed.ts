/** The seed of the port conformance suite and of the use-case tests: one organisation, a festival tree, nine forms. */
import type { FormFieldInput } from "../forms/FormField.js"
import { type ConformanceSeed, seedField, type SeedFormSchema, seedSchemaDefaults } from "./Seed.js"

export const seedIds = {
  organisation: "org-conf",
  festival: "ev-fest",
  day1: "ev-day1",
  day2: "ev-day2",
  day1Night: "ev-day1-night",
  other: "ev-other",
  shifts: "ev-shifts",
  shiftsDay: "ev-shifts-day",
  shiftsForm: "fs-shifts",
  volunteer: "fs-volunteer",
  dayVolunteer: "fs-day-volunteer",
  registration: "fs-registration",
  draft: "fs-draft",
  archived: "fs-archived",
  advance: "fs-advance",
  closed: "fs-closed",
  future: "fs-future",
  wide: "fs-wide",
  noEvent: "fs-no-event"
} as const

export const seedTokens = {
  volunteer: "tok-volunteer-current-0001",
  volunteerPrevious: "tok-volunteer-previous-0001",
  dayVolunteer: "tok-day-volunteer-0001",
  registration: "tok-registration-0001",
  draft: "tok-draft-schema-0001",
  archived: "tok-archived-schema-0001",
  advance: "tok-advance-schema-0001",
  closed: "tok-closed-schema-0001",
  future: "tok-future-schema-0001",
  wide: "tok-wide-schema-0001",
  noEvent: "tok-no-event-schema-0001",
  shifts: "tok-shifts-schema-0001"
} as const

/**
 * The slots of the shifts festival (CONTRACT §15), held only by the tests of places: `a` and `b` touch,
 * `c` overlaps both, `night` runs past midnight into `early`.
 */
export const shiftSlots = {
  a: "slot-shift-a",
  b: "slot-shift-b",
  c: "slot-shift-c",
  night: "slot-shift-night",
  early: "slot-shift-early",
  race: "slot-shift-race",
  /** Capacity 1 with a waitlist: places given up promote the waiting ones (CONTRACT §22). */
  queue: "slot-shift-queue"
} as const

/** The volunteer form's previous token was rotated out at this instant (grace: 24 h by default). */
export const volunteerRotatedAt = "2027-06-30T12:00:00.000Z"
/** An instant at which every published form but `closed` and `future` accepts submissions. */
export const seedNow = "2027-07-01T00:00:00.000Z"
/** The slugs of the `wide` form: 100 optional text fields, for races between saves of different slugs. */
export const wideSlugs: ReadonlyArray<string> = Array.from({ length: 100 }, (_, i) => `s${String(i).padStart(3, "0")}`)

const volunteerFields: ReadonlyArray<FormFieldInput> = [
  seedField({ id: "fv-email", slug: "email", type: "email", is_required: true, is_unique: true, section_id: "fv-s1" }),
  seedField({ id: "fv-name", slug: "name", is_required: true, position: 2, section_id: "fv-s1" }),
  seedField({ id: "fv-shirt", slug: "shirt", type: "select", options: ["S", "M", "L"], position: 3 }),
  seedField({ id: "fv-phone", slug: "phone", type: "phone", position: 4 }),
  seedField({ id: "fv-age", slug: "age", type: "numeric", validation_rules: { min: 16, max: 99 }, position: 5 }),
  seedField({ id: "fv-nick", slug: "nickname", is_unique: true, position: 6 }),
  seedField({ id: "fv-note", slug: "note", type: "textarea", validation_rules: { max: 200 }, position: 7 })
]

const form = (
  schema: Partial<SeedFormSchema> & Pick<SeedFormSchema, "id" | "name" | "public_token">
): SeedFormSchema => ({
  ...seedSchemaDefaults,
  organisation_id: seedIds.organisation,
  event_id: seedIds.festival,
  type: "registration",
  fields: [seedField({ id: `${schema.id}-email`, slug: "email", type: "email", is_required: true })],
  ...schema
})

export const conformanceSeed: ConformanceSeed = {
  organisations: [{ id: seedIds.organisation, name: "Conformance Org" }],
  events: [
    { id: seedIds.festival, organisation_id: seedIds.organisation, name: "Festival 2027", parent_event_id: null },
    { id: seedIds.day1, organisation_id: seedIds.organisation, name: "Friday", parent_event_id: seedIds.festival },
    { id: seedIds.day2, organisation_id: seedIds.organisation, name: "Saturday", parent_event_id: seedIds.festival },
    { id: seedIds.day1Night, organisation_id: seedIds.organisation, name: "Friday night", parent_event_id: seedIds.day1 },
    { id: seedIds.other, organisation_id: seedIds.organisation, name: "Other event", parent_event_id: null },
    { id: seedIds.shifts, organisation_id: seedIds.organisation, name: "Shifts 2027", parent_event_id: null },
    { id: seedIds.shiftsDay, organisation_id: seedIds.organisation, name: "Shifts day", parent_event_id: seedIds.shifts }
  ],
  event_sections: [
    { id: "sec-fest-bar", event_id: seedIds.festival, name: "Bar", type: "standard", show_in_registration: true, position: 2 },
    { id: "sec-d1-bar", event_id: seedIds.day1, name: "Bar", type: "standard", show_in_registration: true, position: 1 },
    { id: "sec-d2-bar", event_id: seedIds.day2, name: "Bar", type: "standard", show_in_registration: true, position: 1 },
    { id: "sec-d1-bar-lower", event_id: seedIds.day1, name: "bar", type: "standard", show_in_registration: true, position: 3 },
    { id: "sec-fest-hidden", event_id: seedIds.festival, name: "Hidden", type: "standard", show_in_registration: false, position: 0 },
    { id: "sec-fest-artist", event_id: seedIds.festival, name: "Backstage", type: "artist", show_in_registration: true, position: 0 },
    { id: "sec-d2-tickets", event_id: seedIds.day2, name: "Tickets", type: "standard", show_in_registration: false, position: 0 },
    { id: "sec-fest-tickets", event_id: seedIds.festival, name: "Tickets", type: "standard", show_in_registration: true, position: 5 },
    { id: "sec-fest-info", event_id: seedIds.festival, name: "Info", type: "standard", show_in_registration: true, position: 2 },
    { id: "sec-d2-camping", event_id: seedIds.day2, name: "Camping", type: "standard", show_in_registration: true, position: 2 },
    { id: "sec-night-watch", event_id: seedIds.day1Night, name: "Watch", type: "standard", show_in_registration: true, position: 1 },
    { id: "sec-other", event_id: seedIds.other, name: "Other", type: "standard", show_in_registration: true, position: 1 }
  ],
  time_slots: [
    { id: "slot-setup", event_id: seedIds.festival, name: "Setup", date: "2027-08-19", start_time: "22:00", end_time: "02:00" },
    { id: "slot-d1-bar-morning", event_id: seedIds.day1, name: "Bar morning", date: "2027-08-20", start_time: "08:00", end_time: "12:00" },
    { id: "slot-d1-bar", event_id: seedIds.day1, name: "Bar", date: "2027-08-20", start_time: "08:00", end_time: "08:20" },
    { id: "slot-d1-gate-b", event_id: seedIds.day1, name: "Gate", date: "2027-08-20", start_time: "06:00", end_time: "06:00" },
    { id: "slot-d1-gate-a", event_id: seedIds.day1, name: "Gate", date: "2027-08-20", start_time: "06:00", end_time: "06:00" },
    { id: "slot-d2-stage", event_id: seedIds.day2, name: "Stage crew", date: "2027-08-21", start_time: "14:30", end_time: "18:45" },
    { id: "slot-night", event_id: seedIds.day1Night, name: "Night watch", date: "2027-08-20", start_time: "23:00", end_time: "07:00" },
    { id: "slot-other", event_id: seedIds.other, name: "Elsewhere", date: "2027-08-20", start_time: "10:00", end_time: "11:00" },
    { id: shiftSlots.a, event_id: seedIds.shifts, name: "Gate", date: "2027-09-01", start_time: "08:00", end_time: "12:00", capacity: 7 },
    { id: shiftSlots.b, event_id: seedIds.shiftsDay, name: "Bar", date: "2027-09-01", start_time: "12:00", end_time: "16:00", capacity: 2 },
    { id: shiftSlots.c, event_id: seedIds.shiftsDay, name: "Stage", date: "2027-09-01", start_time: "10:00", end_time: "14:00", capacity: null },
    { id: shiftSlots.night, event_id: seedIds.shifts, name: "Night", date: "2027-09-01", start_time: "22:00", end_time: "02:00", capacity: 1 },
    { id: shiftSlots.early, event_id: seedIds.shiftsDay, name: "Early", date: "2027-09-02", start_time: "01:00", end_time: "03:00" },
    { id: shiftSlots.race, event_id: seedIds.shifts, name: "Race", date: "2027-09-03", start_time: "08:00", end_time: "12:00", capacity: 7 },
    {
      id: shiftSlots.queue,
      event_id: seedIds.shifts,
      name: "Queue",
      date: "2027-09-04",
      start_time: "08:00",
      end_time: "12:00",
      capacity: 1,
      waitlist: true
    }
  ],
  form_schemas: [
    form({
      id: seedIds.volunteer,
      name: "Volunteers 2027",
      type: "volunteer",
      public_token: seedTokens.volunteer,
      previous_public_token: seedTokens.volunteerPrevious,
      token_rotated_at: volunteerRotatedAt,
      closes_at: "2027-12-31T00:00:00.000Z",
      tags: ["volunteer"],
      sections: [{ id: "fv-s1", name: "About you", position: 1 }],
      fields: volunteerFields
    }),
    form({ id: seedIds.dayVolunteer, name: "Friday crew", type: "volunteer", event_id: seedIds.day1, public_token: seedTokens.dayVolunteer }),
    form({ id: seedIds.registration, name: "Registration", public_token: seedTokens.registration }),
    form({ id: seedIds.draft, name: "Draft form", type: "volunteer", status: "draft", public_token: seedTokens.draft }),
    form({ id: seedIds.archived, name: "Archived form", status: "archived", public_token: seedTokens.archived }),
    form({ id: seedIds.advance, name: "Artist advance", type: "artist_advance", public_token: seedTokens.advance }),
    form({ id: seedIds.closed, name: "Closed form", public_token: seedTokens.closed, closes_at: "2027-01-01T00:00:00.000Z" }),
    form({ id: seedIds.future, name: "Future form", public_token: seedTokens.future, opens_at: "2028-01-01T00:00:00.000Z" }),
    form({
      id: seedIds.wide,
      name: "Wide form",
      type: "volunteer",
      public_token: seedTokens.wide,
      fields: wideSlugs.map((slug, i) => seedField({ id: `fw-${slug}`, slug, position: i + 1 }))
    }),
    form({ id: seedIds.noEvent, name: "No event", event_id: null, public_token: seedTokens.noEvent }),
    form({
      id: seedIds.shiftsForm,
      name: "Shifts",
      type: "volunteer",
      event_id: seedIds.shifts,
      public_token: seedTokens.shifts,
      fields: [
        seedField({ id: "fsh-email", slug: "email", type: "email", is_required: true }),
        seedField({
          id: "fsh-shifts",
          slug: "shifts",
          type: "time_slots",
          is_required: true,
          validation_rules: { max: 3 },
          position: 2
        })
      ]
    })
  ]
}
