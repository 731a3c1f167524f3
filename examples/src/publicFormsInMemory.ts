// The public-form flow (create → save → submit) in memory: no database, no test framework.
import { clientAt, FormsConfig, PublicForms, PublicFormsLive } from "@forms/domain"
import { InMemory } from "@forms/domain/memory"
import { Effect, Layer } from "effect"
import { festival, formToken } from "./festival.js"

const program = Effect.gen(function*() {
  const forms = yield* PublicForms
  const visitor = clientAt("203.0.113.7") // what a client limit counts (an HTTP adapter resolves it)
  const created = yield* forms.createDraft(formToken, { idempotency_key: crypto.randomUUID() }, visitor)
  const id = created.value.submission.id
  yield* forms.save(formToken, id, { full_name: "Ada Lovelace" }, visitor)
  const submitted = yield* forms.submit(formToken, id, { email: "ada@example.org" }, visitor)
  return submitted.value // submitted.rateLimit: the submit limit's state (limit, remaining, reset)
})

const InMemoryForms = PublicFormsLive.layer.pipe(
  Layer.provide([InMemory.layer(festival), FormsConfig.layer({ submitLimitPerHour: 20 })])
)

const submission = await Effect.runPromise(program.pipe(Effect.provide(InMemoryForms)))
console.log(submission.status, JSON.stringify(submission.values))
