/** Port: organisations and their API keys. Keys are stored and looked up as SHA-256 hashes only. */
import { Context, type Effect, type Option, Schema } from "effect"
import type { Unavailable } from "../../shared/errors.js"
import type { ApiKeyRecord, Organisation } from "./CatalogModel.js"

export const NewApiKey = Schema.Struct({
  organisation_id: Schema.String,
  name: Schema.NullOr(Schema.String),
  /** The key as handed to its owner: the adapter stores its SHA-256 hash and its first 8 characters. */
  key: Schema.String,
  /** Epoch ms. */
  created_at: Schema.Number
})
export type NewApiKey = typeof NewApiKey.Type

export class OrganiserAccess extends Context.Service<OrganiserAccess, {
  /** A new organisation with a generated id. */
  readonly createOrganisation: (name: string) => Effect.Effect<Organisation, Unavailable>
  readonly findOrganisation: (id: string) => Effect.Effect<Option.Option<Organisation>, Unavailable>
  /** None when the organisation does not exist. */
  readonly createApiKey: (key: NewApiKey) => Effect.Effect<Option.Option<ApiKeyRecord>, Unavailable>
  /** The key whose hash is the SHA-256 of `key` (revoked or not); the domain never sees a hash. */
  readonly findApiKey: (key: string) => Effect.Effect<Option.Option<ApiKeyRecord>, Unavailable>
  /** The organisation's keys, oldest first. */
  readonly listApiKeys: (organisationId: string) => Effect.Effect<ReadonlyArray<ApiKeyRecord>, Unavailable>
  /** Marks the key revoked at `at` (a revoked key keeps its first revocation time); None when unknown. */
  readonly revokeApiKey: (id: string, at: number) => Effect.Effect<Option.Option<ApiKeyRecord>, Unavailable>
  /** Sets `last_used_at` to `at` unless it is already later (the use case calls it at most once a minute). */
  readonly touchApiKey: (id: string, at: number) => Effect.Effect<void, Unavailable>
}>()("@forms/domain/OrganiserAccess") {}
