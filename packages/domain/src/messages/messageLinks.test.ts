/**
 * Links in messages: the body keeps a marker, the token stays sealed beside it; each attempt renders the URL from
 * the form's current token and the token opened then; organisers see `[link]`; a value can never forge a marker.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { seedIds, seedTokens } from "../memory/conformanceSeed.js"
import { InMemoryMailer, makeMailerState } from "../memory/messages/InMemoryMailer.js"
import { InMemoryMessageRows } from "../memory/messages/InMemoryMessageRows.js"
import { InMemoryStore } from "../memory/InMemoryStore.js"
import { inWorld } from "../testing/publicForms/publicFormsTestKit.js"
import { linkMarker, organiserBody, renderedBody, withoutMarker } from "./messageLinks.js"
import { messagesConfigLayer } from "./MessagesConfig.js"
import { sendDueMessages } from "./sendDue.js"
import { TokenCipher } from "./TokenCipher.js"

// A stand-in for the AES adapter (adapters-http tests it): reversible, and never the token in clear.
const reversed = (s: string) => Array.from(s).reverse().join("")
const cipher = Layer.succeed(TokenCipher, TokenCipher.of({
  seal: (token) => Effect.succeed(`sealed:${reversed(token)}`),
  open: (sealed) => Effect.succeed(sealed.startsWith("sealed:") ? reversed(sealed.slice(7)) : undefined)
}))

describe("links in messages", () => {
  it("the marker: organisers see [link], a send gets the URL, values lose the marker's character", () => {
    const body = `Continue here:\n${linkMarker}\nBye`
    expect(organiserBody(body)).toBe("Continue here:\n[link]\nBye")
    expect(renderedBody(body, "https://f.example/f/t#resume=x")).toBe("Continue here:\nhttps://f.example/f/t#resume=x\nBye")
    expect(withoutMarker(`a${linkMarker}b`)).toBe("alinkb")
  })

  it.effect("each attempt renders the link from the form's current token and the token opened then", () =>
    inWorld(Effect.gen(function*() {
      const store = yield* InMemoryStore
      const sealed = yield* (yield* TokenCipher).seal("tok-123")
      store.data.messages.push({
        message: {
          id: "00000000-0000-4000-a000-00000000ffff", organisation_id: "org-conf", submission_id: null, engagement_id: null,
          kind: "resume_link", to: "ada@example.org", subject: "Continue", body: `Go on:\n${linkMarker}`, status: "pending",
          attempts: 0, round_start: 0, last_error: null, created_at: 0, sent_at: null
        },
        due_at: 0,
        link: { kind: "resume", schema_id: seedIds.volunteer, sealed }
      })
      expect(JSON.stringify(store.data.messages)).not.toContain("tok-123")
      const mail = makeMailerState()
      mail.script.push({ _tag: "Temporary", reason: "451" })
      const sweep = sendDueMessages().pipe(Effect.provide(Layer.mergeAll(InMemoryMessageRows.layer, InMemoryMailer.layer(mail))))
      yield* sweep
      expect(mail.attempted[0]?.text).toBe(`Go on:\nhttps://forms.example/f/${seedTokens.volunteer}#resume=tok-123`)
      // The form's token rotates: the next attempt links to the page under the new one.
      yield* store.updateSchema(seedIds.volunteer, (s) => ({ ...s, public_token: "rotated-token-0000000001" }))
      const row = store.data.messages.at(-1)
      if (row !== undefined) row.due_at = 0
      yield* sweep
      expect(mail.attempted[1]?.text).toBe("Go on:\nhttps://forms.example/f/rotated-token-0000000001#resume=tok-123")
    }).pipe(Effect.provide(cipher))).pipe(
      Effect.provide(messagesConfigLayer({ sending: true, publicBaseUrl: "https://forms.example", retrySchedule: [60] }))
    ))
})
