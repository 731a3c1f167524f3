/** OrganiserAccess in memory: organisations and API keys (kept as given; the SQL adapter keeps hashes only). */
import { Effect, Option } from "effect"
import type { ApiKeyRecord } from "../../../organiser/catalog/CatalogModel.js"
import { OrganiserAccess } from "../../../organiser/catalog/OrganiserAccess.js"
import { compareStrings } from "../../../shared/compareStrings.js"
import type { OrganiserState } from "../OrganiserState.js"

export const inMemoryOrganiserAccess = (state: OrganiserState, newId: () => string): typeof OrganiserAccess.Service =>
  OrganiserAccess.of({
    createOrganisation: (name) =>
      Effect.sync(() => {
        const organisation = { id: newId(), name }
        state.organisations.set(organisation.id, organisation)
        return organisation
      }),
    findOrganisation: (id) => Effect.sync(() => Option.fromUndefinedOr(state.organisations.get(id))),
    createApiKey: (input) =>
      Effect.sync(() => {
        if (!state.organisations.has(input.organisation_id)) return Option.none()
        const record: ApiKeyRecord = {
          id: newId(),
          organisation_id: input.organisation_id,
          name: input.name,
          prefix: input.key.slice(0, 8),
          created_at: input.created_at,
          last_used_at: null,
          revoked_at: null
        }
        state.keys.set(record.id, { key: input.key, record })
        return Option.some(record)
      }),
    findApiKey: (key) =>
      Effect.sync(() => Option.fromUndefinedOr([...state.keys.values()].find((k) => k.key === key)?.record)),
    listApiKeys: (organisationId) =>
      Effect.sync(() =>
        [...state.keys.values()].map((k) => k.record).filter((r) => r.organisation_id === organisationId)
          .sort((a, b) => a.created_at - b.created_at || compareStrings(a.id, b.id))
      ),
    revokeApiKey: (id, at) =>
      Effect.sync(() => {
        const found = state.keys.get(id)
        if (found === undefined) return Option.none()
        found.record = { ...found.record, revoked_at: found.record.revoked_at ?? at }
        return Option.some(found.record)
      }),
    touchApiKey: (id, at) =>
      Effect.sync(() => {
        const found = state.keys.get(id)
        if (found !== undefined && (found.record.last_used_at ?? -Infinity) < at) {
          found.record = { ...found.record, last_used_at: at }
        }
      })
  })
