import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { LanguageChoice } from "../languages/chooseLanguage.js"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { body, inWorld, ip, keyOf, validVolunteer } from "../testing/publicForms/publicFormsTestKit.js"
import { PublicForms } from "./PublicForms.js"

/** The seed's volunteer form in English (its default), Dutch and Swiss German. */
const multilingual = Effect.gen(function*() {
  yield* (yield* InMemoryStore).updateSchema(seedIds.volunteer, (schema) => ({ ...schema, languages: ["en", "nl", "de-CH"] }))
})

describe("PublicForms: a submission's language", () => {
  it.effect("create records the chosen language (Accept-Language by q-value), the default when nothing matches", () =>
    inWorld(Effect.gen(function*() {
      yield* multilingual
      const forms = yield* PublicForms
      const chosen: Array<LanguageChoice> = []
      const dutch = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip, {
        acceptLanguage: "fr;q=0.9, nl-BE, en;q=0.5",
        chosen: (choice) => chosen.push(choice)
      })
      expect(dutch.value.submission.language).toBe("nl")
      expect(chosen).toEqual([{ language: "nl", explicit: true }])
      const plain = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(2) }, ip, { acceptLanguage: "fr, ja" })
      expect(plain.value.submission.language).toBe("en")
      const none = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(3) }, ip)
      expect(none.value.submission.language).toBe("en")
    })))

  it.effect("a save or submit that names a language explicitly replaces it; one that does not keeps it", () =>
    inWorld(Effect.gen(function*() {
      yield* multilingual
      const forms = yield* PublicForms
      const created = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip, { lang: "DE-ch" })
      expect(created.value.submission.language).toBe("de-CH")
      // `*` and an unmatched range are no explicit choice; the answer is in the default language.
      const chosen: Array<LanguageChoice> = []
      const kept = yield* forms.save(seedTokens.volunteer, created.value.submission.id, body(), ip, {
        acceptLanguage: "*, fr",
        chosen: (choice) => chosen.push(choice)
      })
      expect(kept.value.language).toBe("de-CH")
      expect(chosen).toEqual([{ language: "en", explicit: false }])
      const replaced = yield* forms.save(seedTokens.volunteer, created.value.submission.id, body(), ip, { acceptLanguage: "nl" })
      expect(replaced.value.language).toBe("nl")
      const submitted = yield* forms.submit(seedTokens.volunteer, created.value.submission.id, body(validVolunteer()), ip, {
        lang: "en"
      })
      expect(submitted.value.language).toBe("en")
      const event = (yield* (yield* InMemoryStore).outbox).find((row) => row.type === "submission.submitted")
      expect(event?.payload).toMatchObject({ submission_id: created.value.submission.id, language: "en" })
    })))

  it.effect("a submit without an explicit language puts the draft's language in the event", () =>
    inWorld(Effect.gen(function*() {
      yield* multilingual
      const forms = yield* PublicForms
      const created = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip, { lang: "nl" })
      const submitted = yield* forms.submit(seedTokens.volunteer, created.value.submission.id, body(validVolunteer()), ip, {
        acceptLanguage: "ja"
      })
      expect(submitted.value.language).toBe("nl")
      const event = (yield* (yield* InMemoryStore).outbox).find((row) => row.type === "submission.submitted")
      expect(event?.payload).toMatchObject({ language: "nl" })
    })))

  it.effect("time slots and sections report the language chosen for the form", () =>
    inWorld(Effect.gen(function*() {
      yield* multilingual
      const forms = yield* PublicForms
      const chosen: Array<string> = []
      yield* forms.timeSlots(seedTokens.volunteer, { lang: "nl", chosen: (choice) => chosen.push(choice.language) })
      yield* forms.sections(seedTokens.volunteer, { acceptLanguage: "de", chosen: (choice) => chosen.push(choice.language) })
      expect(chosen).toEqual(["nl", "de-CH"])
    })))

  it.effect("the confirmation is written in the submission's language, the organiser's notice in the default", () =>
    inWorld(Effect.gen(function*() {
      const store = yield* InMemoryStore
      yield* store.updateSchema(seedIds.volunteer, (schema) => ({
        ...schema,
        languages: ["en", "nl"],
        translations: {
          nl: {
            name: "Vrijwilligers",
            fields: { name: { label: "Naam" } },
            messages: { confirmation: { subject: "Bedankt, {{name}}", body: "{{form_name}}\n{{answers}}" } }
          }
        },
        messages: {
          confirmation: { to_field: "email", subject: "Thanks, {{name}}", body: "{{form_name}}\n{{answers}}" },
          notify: { to: ["crew@example.org"] }
        }
      }))
      const forms = yield* PublicForms
      const created = yield* forms.createDraft(seedTokens.volunteer, { idempotency_key: keyOf(1) }, ip, { acceptLanguage: "nl-NL" })
      yield* forms.submit(seedTokens.volunteer, created.value.submission.id, body(validVolunteer()), ip)
      const sent = store.data.messages.map((row) => row.message)
      expect(sent.map((m) => [m.kind, m.to, m.subject])).toEqual([
        ["confirmation", "ada@example.org", "Bedankt, Ada"],
        ["notification", "crew@example.org", expect.stringMatching(/^New submission: /)]
      ])
      expect(sent[0]?.body.split("\n").slice(0, 1)).toEqual(["Vrijwilligers"])
      expect(sent[0]?.body).toContain("Naam: Ada")
      expect(sent[1]?.body).toContain("name: Ada")
      expect(sent[1]?.subject).not.toContain("Vrijwilligers")
    })))
})
