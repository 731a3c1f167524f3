import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import type { FormSchema } from "../forms/FormSchema.js"
import { normalizeField } from "../forms/FormField.js"
import { seedField } from "../memory/Seed.js"
import {
  composePortalLink,
  composePromotion,
  composeSectionReminder,
  composeShiftReminder,
  planShiftReminders
} from "./composeReminders.js"
import { portalLinkInput } from "./portalLinkInput.js"

const schema = (messages: FormSchema["messages"]): FormSchema => ({
  id: "s1",
  organisation_id: "o1",
  revision: 1,
  event: null,
  name: "Crew",
  type: "volunteer",
  status: "published",
  public_token: "t",
  previous_public_token: null,
  token_rotated_at: null,
  opens_at: null,
  closes_at: null,
  tags: [],
  sections: [],
  fields: [normalizeField(seedField({ id: "f1", slug: "email", type: "email", label: "Email", position: 1 }))],
  ...(messages === undefined ? {} : { messages })
})

const confirmation = { to_field: "email", subject: "Hi", body: "Thanks" }
const hostileSlot = { name: "Bar\r\nBcc: evil@x.org", date: "2030-06-01", start_time: "10:00", end_time: "12:00", timezone: "Europe/Amsterdam" }

describe("reminder plans and texts", () => {
  it("a submit plans one reminder per slot and hours_before, to a checked confirmation address only", () => {
    const form = schema({ confirmation, reminders: [{ hours_before: 24 }, { hours_before: 2 }, { hours_before: 24 }] })
    expect(planShiftReminders(form, { email: " a@example.org " }, ["s1", "s2"])).toEqual([
      { slot_id: "s1", hours_before: 24, to: "a@example.org" },
      { slot_id: "s1", hours_before: 2, to: "a@example.org" },
      { slot_id: "s2", hours_before: 24, to: "a@example.org" },
      { slot_id: "s2", hours_before: 2, to: "a@example.org" }
    ])
    // No address that passes the email rule, an inactive (absent) field, no slot, no reminders, no confirmation: none.
    expect(planShiftReminders(form, { email: "a@example.org\r\nBcc: b@example.org" }, ["s1"])).toEqual([])
    expect(planShiftReminders(form, { email: ["a@example.org"] }, ["s1"])).toEqual([])
    expect(planShiftReminders(form, {}, ["s1"])).toEqual([])
    expect(planShiftReminders(form, { email: "a@example.org" }, [])).toEqual([])
    expect(planShiftReminders(schema({ confirmation }), { email: "a@example.org" }, ["s1"])).toEqual([])
    expect(planShiftReminders(schema(undefined), { email: "a@example.org" }, ["s1"])).toEqual([])
  })

  it("subjects stay one line whatever a slot, form or section name holds; bodies are plain text", () => {
    const reminder = composeShiftReminder({
      submission_id: "x", slot_id: "s1", hours_before: 24, to: "a@example.org", form_name: "Crew\nX-Evil: 1", slot: hostileSlot
    }, false)
    expect(reminder.subject).toBe("Reminder: Bar  Bcc: evil@x.org (Crew X-Evil: 1)")
    expect(reminder.status).toBe("held")
    expect(reminder.body).toContain("Bar\r\nBcc: evil@x.org: 2030-06-01 10:00–12:00 (Europe/Amsterdam)")
    const section = composeSectionReminder({
      engagement_id: "e", section_id: "s", section_name: "Rider\u2028Bcc: x@y.org", event_name: "Fest", artist_name: "Band",
      to: "m@example.org", due_at: Date.parse("2030-06-01T12:00:00Z"), hours_before: 24
    }, true)
    expect(section.subject).toBe("Due 2030-06-01 12:00 UTC: Rider Bcc: x@y.org (Fest)")
    expect(section.status).toBe("pending")
    expect(section.kind).toBe("section_reminder")
    const long = composeShiftReminder({
      submission_id: "x", slot_id: "s1", hours_before: 24, to: "a@example.org", form_name: "F", slot: { ...hostileSlot, name: "y".repeat(500) }
    }, true)
    expect(Array.from(long.subject)).toHaveLength(200)
  })

  it("a promotion goes to the confirmation address when it passes the email rule, else none", () => {
    const place = { submission_id: "x", slot_id: "s1", form_name: "Crew", slot: hostileSlot, to_field: "email", to_value: "w@example.org" }
    expect(composePromotion(place, false)).toMatchObject({ kind: "promotion", to: "w@example.org", status: "held" })
    expect(composePromotion({ ...place, to_value: "not an address" }, false)).toBeUndefined()
    expect(composePromotion({ ...place, to_value: 42 }, false)).toBeUndefined()
    expect(composePromotion({ ...place, to_field: null }, false)).toBeUndefined()
  })

  it("portal-link's body: send_to an address or null; anything else 422 at send_to; unknown members invalid", () => {
    expect(portalLinkInput({})).toEqual(Result.succeed({ send_to: null }))
    expect(portalLinkInput({ send_to: null })).toEqual(Result.succeed({ send_to: null }))
    expect(portalLinkInput({ send_to: "m@example.org" })).toEqual(Result.succeed({ send_to: "m@example.org" }))
    const rules = (body: Record<string, unknown>) => {
      const result = portalLinkInput(body)
      return Result.isFailure(result) ? Object.fromEntries(Object.entries(result.failure).map(([k, v]) => [k, v.map((e) => e.rule)])) : {}
    }
    expect(rules({ send_to: "m@example.org\r\nBcc: x@example.org" })).toEqual({ send_to: ["email"] })
    expect(rules({ send_to: 7 })).toEqual({ send_to: ["invalid"] })
    expect(rules({ send_to: "m@example.org", cc: "x" })).toEqual({ cc: ["invalid"] })
    const message = composePortalLink("m@example.org", "https://forms.example/portal/abc", false)
    expect(message).toEqual({
      kind: "portal_link",
      to: "m@example.org",
      subject: "Your artist portal link",
      body: "Your artist portal: https://forms.example/portal/abc\n\nThis link is personal; a new link replaces it.\n",
      status: "held"
    })
  })
})
