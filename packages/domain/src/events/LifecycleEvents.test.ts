import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { emptyValues } from "../forms/Values.js"
import {
  decodeSectionSubmitted,
  decodeSubmissionSubmitted,
  sectionSubmitted,
  submissionSubmitted
} from "./LifecycleEvents.js"

const values = () => {
  const out = emptyValues()
  out.email = "a@b.nl"
  return out
}

describe("lifecycle event payloads", () => {
  it.effect("submission.submitted: the contract's fields, submitted_at in ISO 8601 UTC; it decodes", () =>
    Effect.gen(function*() {
      const event = submissionSubmitted({
        submission_id: "s-1",
        schema_id: "fs-1",
        organisation_id: "org",
        event_id: null,
        values: values(),
        submitted_at: Date.parse("2027-07-01T10:00:00.000Z"),
        language: "de-CH"
      })
      expect(event.type).toBe("submission.submitted")
      const json = JSON.parse(JSON.stringify(event.payload))
      expect(json).toEqual({
        submission_id: "s-1",
        schema_id: "fs-1",
        organisation_id: "org",
        event_id: null,
        values: { email: "a@b.nl" },
        submitted_at: "2027-07-01T10:00:00.000Z",
        language: "de-CH"
      })
      expect(yield* decodeSubmissionSubmitted(json)).toEqual(json)
    }))

  it.effect("section.submitted: the contract's fields; it decodes; a broken payload does not", () =>
    Effect.gen(function*() {
      const event = sectionSubmitted({
        engagement_id: "en-1",
        section_id: "as-1",
        form_section_id: "fss-1",
        submission_id: "s-1",
        values: values()
      })
      expect(event.type).toBe("section.submitted")
      const json = JSON.parse(JSON.stringify(event.payload))
      expect(Object.keys(json).sort()).toEqual(["engagement_id", "form_section_id", "section_id", "submission_id", "values"])
      expect((yield* decodeSectionSubmitted(json)).values).toEqual({ email: "a@b.nl" })
      const broken = yield* Effect.flip(decodeSectionSubmitted({ ...json, engagement_id: 7 }))
      expect(broken._tag).toBe("SchemaError")
    }))

  it("the payload's values are a copy: changing the source later changes nothing", () => {
    const source = values()
    const event = sectionSubmitted({ engagement_id: "e", section_id: "s", form_section_id: "f", submission_id: "x", values: source })
    source.email = "changed"
    expect(JSON.parse(JSON.stringify(event.payload)).values).toEqual({ email: "a@b.nl" })
  })
})
