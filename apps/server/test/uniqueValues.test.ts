/**
 * CONTRACT §4 `unique` through HTTP on a real database: values at the §8 size limits never give a 5xx,
 * numbers compare by value and phones by their digits.
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { loadFixture } from "@forms/adapters-sql"
import { backends, reportSkippedPostgres } from "./backends.js"
import { call, dataOf, envelope, liveOptions, testServer } from "./harness.js"

const token = "test-unique-token-0001"
const form = `/public/forms/${token}`
const taken = [{ rule: "unique", message: "This value has already been used." }]

/** Code point blocks of 1, 2, 3 and 4 UTF-8 bytes. */
const blocks = [0x41, 0xe0, 0x4e00, 0x1f300] as const
/** 200 options of 100 code points each, of 1 to 4 UTF-8 bytes (incompressible: no repeated letter). */
const longOptions = Array.from({ length: 200 }, (_, i) =>
  Array.from({ length: 100 }, (_, j) => String.fromCodePoint((blocks[(i + j) % 4] ?? 0x41) + ((i * 131 + j * 17) % 64))).join(""))

const field = (slug: string, type: string, options: ReadonlyArray<string> | null = null, position = 1) => ({
  id: `f-unique-${slug}`,
  section_id: null,
  slug,
  label: slug,
  type,
  is_required: false,
  options: options?.map((value, i) => ({ value, label: `Pick ${i}`, tags: [] })) ?? null,
  validation_rules: null,
  is_unique: true,
  position,
  maps_to: null
})

// Loaded next to the server's own fixture (its organisation and event repeated unchanged).
const uniqueFixture = {
  organisations: [{ id: "org-t", name: "Test organisation" }],
  events: [{ id: "ev-t", organisation_id: "org-t", name: "Test festival", parent_event_id: null }],
  form_schemas: [{
    id: "fs-unique",
    organisation_id: "org-t",
    event_id: "ev-t",
    name: "Unique values",
    type: "registration",
    status: "published",
    public_token: token,
    fields: [
      field("nick", "text"),
      field("amount", "numeric", null, 2),
      field("mobile", "phone", null, 3),
      field("picks", "select", longOptions, 4)
    ]
  }]
}

let keys = 0
const draft = (values: Record<string, unknown>) =>
  Effect.gen(function*() {
    const created = yield* call(`${form}/submissions`, {
      method: "POST",
      body: { idempotency_key: `unique-values-${String(++keys).padStart(4, "0")}-0123456789abcdef` }
    })
    assert.strictEqual(created.status, 201, created.text)
    const id = String(dataOf(created)["id"])
    return yield* call(`${form}/submissions/${id}/submit`, { method: "POST", body: { values } })
  })

const failed = (fields: Record<string, unknown>) => envelope("VALIDATION_FAILED", "One or more values are invalid.", fields)

for (const backend of backends) {
  layer(testServer(backend, { SUBMIT_RATE_LIMIT_PER_HOUR: "1000" }), liveOptions)(`unique values (${backend})`, (it) => {
    it.effect("a 10,000-code-point unique value and a 200-item one are claimed: the first submit wins, the second gets 422", () =>
      Effect.gen(function*() {
        yield* loadFixture(uniqueFixture)
        const nick = Array.from({ length: 10_000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20_000))).join("")
        const first = yield* draft({ nick })
        assert.strictEqual(first.status, 200, first.text.slice(0, 200))
        const second = yield* draft({ nick })
        assert.strictEqual(second.text, failed({ nick: taken }))
        const picks = yield* draft({ picks: longOptions })
        assert.strictEqual(picks.status, 200, picks.text.slice(0, 200))
        const reversed = yield* draft({ picks: [...longOptions].reverse() })
        assert.strictEqual(reversed.text, failed({ picks: taken }))
      }))

    it.effect("numbers compare by value and phones by their digits", () =>
      Effect.gen(function*() {
        assert.strictEqual((yield* draft({ amount: "12.0", mobile: "+31 6 1234 5678" })).status, 200)
        for (const amount of [12, "12", "1.2e1", "012", " +120e-1 "]) {
          assert.strictEqual((yield* draft({ amount })).text, failed({ amount: taken }), String(amount))
        }
        for (const mobile of ["+31-6-12345678", "31612345678", "+31 (6) 1234.5678"]) {
          assert.strictEqual((yield* draft({ mobile })).text, failed({ mobile: taken }), mobile)
        }
        assert.strictEqual((yield* draft({ amount: "12.5", mobile: "+31 6 1234 5679" })).status, 200)
      }))
  })
}

reportSkippedPostgres("unique values")
