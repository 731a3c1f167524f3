import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { definitionInput } from "../organiser/forms/formInput.js"

const base = (type: string, messages: unknown) => ({
  name: "Crew",
  type,
  event_id: null,
  fields: [
    { slug: "email", label: "Email", type: "email" },
    { slug: "name", label: "Name", type: "text" }
  ],
  messages
})

const errorsOf = (body: Record<string, unknown>) => {
  const result = definitionInput(body)
  return Result.isFailure(result) ? Object.fromEntries(Object.entries(result.failure).map(([k, v]) => [k, v.map((e) => e.rule)])) : {}
}

describe("messages in the form definition", () => {
  it("a valid member is kept as sent", () => {
    const messages = {
      confirmation: { to_field: "email", subject: "Thanks {{name}}", body: "{{answers}}\n{{form_name}} {{manage_url}}" },
      notify: { to: ["crew@example.org"] },
      reminders: [{ hours_before: 24 }]
    }
    const result = definitionInput(base("volunteer", messages))
    expect(Result.isSuccess(result) ? result.success.messages : result.failure).toEqual(messages)
  })

  it("null or absent: no messages", () => {
    for (const body of [base("registration", null), { ...base("registration", null), messages: undefined }]) {
      const result = definitionInput(JSON.parse(JSON.stringify(body)) as Record<string, unknown>)
      expect(Result.isSuccess(result) && !("messages" in result.success)).toBe(true)
    }
  })

  it("every problem at its dotted path with its rule", () => {
    expect(errorsOf(base("registration", {
      confirmation: { to_field: "name", subject: "Hi\r\nBcc: x@y.org", body: "{{nope}}" },
      notify: { to: ["a@b.org", "not an address"] },
      reminders: [{ hours_before: 0 }, { hours_before: 721 }, { hours_before: 5 }, { hours_before: 6 }]
    }))).toEqual({
      "messages.confirmation.to_field": ["in"],
      "messages.confirmation.subject": ["invalid"],
      "messages.confirmation.body": ["in"],
      "messages.notify.to.1": ["email"],
      "messages.reminders": ["invalid", "max"],
      "messages.reminders.0.hours_before": ["min"],
      "messages.reminders.1.hours_before": ["max"]
    })
  })

  it("lengths: subject 200, body 10,000, notify 10 addresses; a placeholder naming no slug in the subject", () => {
    expect(errorsOf(base("volunteer", {
      confirmation: { to_field: "email", subject: `${"s".repeat(201)}`, body: "b".repeat(10_001) },
      notify: { to: Array.from({ length: 11 }, (_, i) => `a${i}@b.org`) }
    }))).toEqual({
      "messages.confirmation.subject": ["max"],
      "messages.confirmation.body": ["max"],
      "messages.notify.to": ["max"]
    })
    expect(errorsOf(base("volunteer", { confirmation: { to_field: "email", subject: "{{ghost}}", body: "" } })))
      .toEqual({ "messages.confirmation.subject": ["in"] })
  })

  it("reminders need a confirmation; the shape is checked member by member", () => {
    expect(errorsOf(base("volunteer", { reminders: [{ hours_before: 2 }] }))).toEqual({ "messages.reminders": ["invalid"] })
    expect(errorsOf(base("volunteer", {
      confirmation: { to_field: "email", subject: 1 },
      notify: "x",
      other: true
    }))).toEqual({
      "messages.confirmation.subject": ["invalid"],
      "messages.confirmation.body": ["required"],
      "messages.notify": ["invalid"],
      "messages.other": ["invalid"]
    })
  })
})
