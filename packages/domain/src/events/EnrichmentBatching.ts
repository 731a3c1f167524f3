/**
 * Tag sync and identity match write through these: the dispatcher delivers a claimed batch's events
 * concurrently, and the writes their handlers request in the same moment go to the port as one batch
 * (`setSubmissionTagsMany`, `linkContacts`: one statement each on SQL), and their schema lookups are made once
 * per schema. Each event keeps its own delivery:
 * a batch that fails is written again item by item, so a poison item fails its own event alone.
 */
import { Cause, Effect, Exit, type Option, Request, RequestResolver } from "effect"
import type { FormSchema } from "../forms/FormSchema.js"
import type { Unavailable } from "../shared/errors.js"
import { Enrichment, type LinkContact, type SubmissionTags } from "./Enrichment.js"
import { SchemaCatalog } from "./SchemaCatalog.js"

/** One write of a batched kind: `item` is what the port's single call takes. */
interface Write<T> extends Request.Request<void, Unavailable> {
  readonly _tag: "Write"
  readonly item: T
}

/** Requests made within these many scheduler turns of the first join its batch: the handlers of concurrent deliveries. */
const windowTurns = 8
const batchWindow = Effect.gen(function*() {
  for (let turn = 0; turn < windowTurns; turn++) yield* Effect.yieldNow
})

/**
 * Runs `many` over every entry; when it fails (not interrupted), runs `one` for each entry on its own and
 * completes each with its own outcome.
 */
const batched = <T>(
  many: (items: ReadonlyArray<T>) => Effect.Effect<void, Unavailable>,
  one: (item: T) => Effect.Effect<void, Unavailable>
): (item: T) => Effect.Effect<void, Unavailable> => {
  const make = Request.tagged<Write<T>>("Write")
  const resolver = RequestResolver.setDelayEffect(
    RequestResolver.make<Write<T>>((entries) =>
      Effect.gen(function*() {
        const exit = yield* Effect.exit(entries.length === 1 ? one(entries[0].request.item) : many(entries.map((e) => e.request.item)))
        if (Exit.isSuccess(exit) || entries.length === 1 || Cause.hasInterruptsOnly(exit.cause)) {
          for (const entry of entries) entry.completeUnsafe(exit)
          return
        }
        yield* Effect.forEach(entries, (entry) =>
          Effect.exit(one(entry.request.item)).pipe(Effect.map((single) => entry.completeUnsafe(single))), { discard: true })
      })
    ),
    batchWindow
  )
  return (item) => Effect.request(make({ item }), resolver)
}

interface FindSchema extends Request.Request<Option.Option<FormSchema>, Unavailable> {
  readonly _tag: "FindSchema"
  readonly schemaId: string
}
const FindSchema = Request.tagged<FindSchema>("FindSchema")

/** `SchemaCatalog.findById` with the lookups of concurrent deliveries made once per schema id. */
export const makeSchemaLookup = Effect.gen(function*() {
  const catalog = yield* SchemaCatalog
  const resolver = RequestResolver.setDelayEffect(
    RequestResolver.make<FindSchema>((entries) =>
      Effect.forEach(new Set(entries.map((entry) => entry.request.schemaId)), (schemaId) =>
        Effect.exit(catalog.findById(schemaId)).pipe(Effect.map((exit) => {
          for (const entry of entries) if (entry.request.schemaId === schemaId) entry.completeUnsafe(exit)
        })), { discard: true })
    ),
    batchWindow
  )
  return (schemaId: string): Effect.Effect<Option.Option<FormSchema>, Unavailable> =>
    Effect.request(FindSchema({ schemaId }), resolver)
})

/** The batched writes of the `submission.submitted` handlers, over the Enrichment port in context. */
export const makeEnrichmentBatching = Effect.gen(function*() {
  const enrichment = yield* Enrichment
  return {
    setSubmissionTags: batched<SubmissionTags>(
      (items) => enrichment.setSubmissionTagsMany(items),
      (item) => enrichment.setSubmissionTags(item.submission_id, item.tags)
    ),
    linkContact: batched<LinkContact>(
      (links) => enrichment.linkContacts(links),
      (link) => Effect.asVoid(enrichment.linkContact(link))
    )
  }
})
