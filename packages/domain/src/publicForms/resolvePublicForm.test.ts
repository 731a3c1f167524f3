import fc from "fast-check"
import { describe, expect, it } from "@effect/vitest"
import type { FormSchema } from "../forms/FormSchema.js"
import { acceptsSubmissions, resolvePublicForm } from "./resolvePublicForm.js"

const rotatedAt = Date.parse("2027-06-30T12:00:00.000Z")
const grace = 86_400

const schema = (overrides: Partial<FormSchema> = {}): FormSchema => ({
  id: "fs-1",
  organisation_id: "org-1",
  revision: 1,
  event: { id: "ev-1", name: "Festival" },
  name: "Volunteers",
  type: "volunteer",
  status: "published",
  public_token: "current-token-000001",
  previous_public_token: "previous-token-00001",
  token_rotated_at: rotatedAt,
  opens_at: null,
  closes_at: null,
  tags: [],
  sections: [],
  fields: [],
  ...overrides
})

describe("resolvePublicForm", () => {
  it.each([
    { case: "the current token", token: "current-token-000001", at: rotatedAt + 10 * grace * 1000, found: true },
    { case: "the previous token just after the rotation", token: "previous-token-00001", at: rotatedAt, found: true },
    { case: "the previous token one second inside the grace window", token: "previous-token-00001", at: rotatedAt + (grace - 1) * 1000, found: true },
    { case: "the previous token one millisecond inside", token: "previous-token-00001", at: rotatedAt + grace * 1000 - 1, found: true },
    { case: "the previous token exactly at the end of the window", token: "previous-token-00001", at: rotatedAt + grace * 1000, found: false },
    { case: "the previous token one second outside", token: "previous-token-00001", at: rotatedAt + (grace + 1) * 1000, found: false },
    { case: "another token", token: "another-token-000001", at: rotatedAt, found: false }
  ])("$case → found: $found", ({ at, found, token }) => {
    const form = schema()
    expect(resolvePublicForm(form, token, at, grace)).toBe(found ? form : undefined)
  })

  it.each([
    { case: "no schema", form: undefined },
    { case: "a draft schema", form: schema({ status: "draft" }) },
    { case: "an archived schema", form: schema({ status: "archived" }) },
    { case: "an artist_advance schema", form: schema({ type: "artist_advance" }) }
  ])("$case is never found, even by its current token", ({ form }) => {
    expect(resolvePublicForm(form, "current-token-000001", rotatedAt, grace)).toBeUndefined()
  })

  it("a previous token without a rotation time is not honoured", () => {
    expect(resolvePublicForm(schema({ token_rotated_at: null }), "previous-token-00001", rotatedAt, grace)).toBeUndefined()
  })

  it("a null public token never matches", () => {
    const form = schema({ public_token: null, previous_public_token: null })
    expect(resolvePublicForm(form, "", rotatedAt, grace)).toBeUndefined()
  })

  it("the grace window is configurable (0 turns the previous token off)", () => {
    expect(resolvePublicForm(schema(), "previous-token-00001", rotatedAt, 0)).toBeUndefined()
    expect(resolvePublicForm(schema(), "previous-token-00001", rotatedAt + 59_000, 60)).toBeDefined()
  })

  it("property: the previous token works exactly while now - rotated < grace", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 200_000_000 }), fc.integer({ min: 0, max: 172_800 }), (offset, seconds) => {
        const found = resolvePublicForm(schema(), "previous-token-00001", rotatedAt + offset, seconds) !== undefined
        expect(found).toBe(offset < seconds * 1000)
      })
    )
  })
})

describe("acceptsSubmissions", () => {
  const now = Date.parse("2027-07-01T00:00:00.000Z")
  it.each([
    { case: "published, no bounds", form: schema(), accepts: true },
    { case: "opens now", form: schema({ opens_at: now }), accepts: true },
    { case: "opens in a millisecond", form: schema({ opens_at: now + 1 }), accepts: false },
    { case: "closes in a millisecond", form: schema({ closes_at: now + 1 }), accepts: true },
    { case: "closes now", form: schema({ closes_at: now }), accepts: false },
    { case: "closed yesterday", form: schema({ closes_at: now - 86_400_000 }), accepts: false },
    { case: "open window around now", form: schema({ opens_at: now - 1, closes_at: now + 1 }), accepts: true },
    { case: "draft", form: schema({ status: "draft" }), accepts: false },
    { case: "archived", form: schema({ status: "archived" }), accepts: false }
  ])("$case → $accepts", ({ accepts, form }) => {
    expect(acceptsSubmissions(form, now)).toBe(accepts)
  })
})
