/**
 * Type tests (checked by `pnpm typecheck`, not run): a handler answers what its endpoint's success schema
 * encodes, so an answer of the wrong shape does not compile. Each `@ts-expect-error` below fails the type
 * check the day such an answer compiles.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api, DraftCreated } from "../src/index.js"

const submission = {
  id: "s",
  status: "draft",
  idempotency_key: "k".repeat(16),
  auto_save_count: 0,
  event_id: null,
  values: {},
  created_at: "2027-01-01T00:00:00.000Z",
  updated_at: "2027-01-01T00:00:00.000Z",
  submitted_at: null,
  language: "en"
} as const

/** The answer the endpoint declares compiles. */
export const organisation = HttpApiBuilder.handler(Api, "catalog", "getOrganisation", () =>
  Effect.succeed({ data: { id: "org", name: "Org" } }))

/** `{ cnt: 1 }` is not `{ data: { id, name } }`. */
export const wrongShape = HttpApiBuilder.handler(Api, "catalog", "getOrganisation", () =>
  // @ts-expect-error the endpoint answers `{ data: Organisation }`
  Effect.succeed({ cnt: 1 }))

/** A list without `next_cursor` is not a page. */
export const pageWithoutCursor = HttpApiBuilder.handler(Api, "artists", "listArtists", () =>
  // @ts-expect-error the endpoint answers `{ data, next_cursor }`
  Effect.succeed({ data: [] }))

/** A member of the wrong type. */
export const wrongMember = HttpApiBuilder.handler(Api, "webhooks", "replayWebhook", () =>
  // @ts-expect-error `queued` is a number
  Effect.succeed({ data: { queued: "2" } }))

/**
 * The create's status follows the class of its answer (201 DraftCreated, 200 DraftExisting). TypeScript
 * compares classes by shape, so it cannot tell a plain `{ data }` from them: `draftAnswer` is the one place
 * that builds them, and the route tests see the two statuses.
 */
export const created = HttpApiBuilder.handler(Api, "publicForms", "createDraft", () =>
  Effect.succeed(new DraftCreated({ data: submission })))

