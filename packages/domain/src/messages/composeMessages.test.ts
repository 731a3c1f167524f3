import { describe, expect, it } from "@effect/vitest"
import type { FormSchema } from "../forms/FormSchema.js"
import { normalizeField } from "../forms/FormField.js"
import { seedField } from "../memory/Seed.js"
import { composeSubmitMessages } from "./composeMessages.js"
import { linkMarker, organiserBody } from "./messageLinks.js"

const schema: FormSchema = {
  id: "s1",
  organisation_id: "o1",
  revision: 1,
  event: null,
  name: "Crew\r\nBcc: evil@x.org",
  type: "volunteer",
  status: "published",
  public_token: "t",
  previous_public_token: null,
  token_rotated_at: null,
  opens_at: null,
  closes_at: null,
  tags: [],
  sections: [{ id: "sec", name: "About", position: 1 }],
  fields: [
    normalizeField(seedField({ id: "f1", slug: "email", type: "email", label: "Email", section_id: "sec", position: 1 })),
    normalizeField(seedField({ id: "f2", slug: "name", label: "Name", position: 2 })),
    normalizeField(seedField({ id: "f3", slug: "shirt", label: "Shirt", type: "select", options: [{ value: "m", label: "Medium" }], position: 3 })),
    normalizeField(seedField({ id: "f4", slug: "days", label: "Days", type: "checkbox", options: ["fri", "sat"], position: 1 }))
  ],
  messages: {
    confirmation: { to_field: "email", subject: "Hi {{name}} ({{form_name}})", body: "Dear {{name}},\n{{answers}}\n<{{manage_url}}>" },
    notify: { to: ["crew@example.org"] }
  }
}

describe("composeSubmitMessages", () => {
  it("fills placeholders from the values; answers in the export's order; options by label", () => {
    const [confirmation, notice] = composeSubmitMessages(schema, { email: "ada@example.org", name: "Ada", shirt: "m", days: ["fri", "sat"] }, "sub-1", true)
    expect(confirmation).toEqual({
      kind: "confirmation",
      to: "ada@example.org",
      subject: "Hi Ada (Crew  Bcc: evil@x.org)",
      body: "Dear Ada,\nDays: fri, sat\nName: Ada\nShirt: Medium\nEmail: ada@example.org\n<>",
      status: "pending"
    })
    expect(notice).toEqual({
      kind: "notification",
      to: "crew@example.org",
      subject: "New submission: Crew  Bcc: evil@x.org",
      body: "Days: fri, sat\nName: Ada\nShirt: Medium\nEmail: ada@example.org\n\nSubmission: sub-1",
      status: "pending"
    })
  })

  it("a hostile value can never break the subject's line; it is cut to 200 code points", () => {
    const [confirmation] = composeSubmitMessages(schema, { email: "a@b.org", name: `X\r\nBcc: victim@x.org\u2028${"é".repeat(300)}` }, "s", false)
    expect(confirmation?.subject).not.toMatch(/[\r\n\u2028]/)
    expect(Array.from(confirmation?.subject ?? "").length).toBe(200)
    expect(confirmation?.status).toBe("held")
    // The body is text: the value as typed, never read as a placeholder again.
    const [again] = composeSubmitMessages(schema, { email: "a@b.org", name: "{{email}}" }, "s", false)
    expect(again?.body.startsWith("Dear {{email}},")).toBe(true)
  })

  it("a value can never forge a link's marker in a body", () => {
    const messages = composeSubmitMessages(schema, { email: "a@b.org", name: `x${linkMarker}y` }, "s", false)
    for (const m of messages) {
      expect(m.body).not.toContain(linkMarker)
      expect(organiserBody(m.body)).not.toContain("[link]")
    }
  })

  it("no confirmation without an address passing the email rule (inactive fields are absent from the values)", () => {
    for (const email of [undefined, "", "not an address", "a@b.org\r\nBcc: c@d.org", ["a@b.org"]]) {
      const messages = composeSubmitMessages(schema, email === undefined ? { name: "Ada" } : { email, name: "Ada" }, "s", true)
      expect(messages.map((m) => m.kind)).toEqual(["notification"])
    }
  })
})
