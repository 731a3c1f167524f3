/** Helpers of the organiser-route tests: keys made through the port, bearer calls, the answers' data. */
import { Clock, Effect, Option } from "effect"
import { OrganiserAccess } from "@forms/domain"
import { generateApiKey } from "../src/organiserCommands.js"
import { call, type RawResponse } from "./harness.js"

/** A new key of `organisationId` (through the port, as the CLI makes one). */
export const keyOf = (organisationId: string) =>
  Effect.gen(function*() {
    const access = yield* OrganiserAccess
    const key = generateApiKey()
    const record = yield* access.createApiKey({
      organisation_id: organisationId,
      name: "test",
      key,
      created_at: yield* Clock.currentTimeMillis
    })
    return { key, id: Option.getOrThrow(record).id }
  })

/** A new organisation and a key of it. */
export const newOrganisation = Effect.gen(function*() {
  const organisation = yield* (yield* OrganiserAccess).createOrganisation("Fresh organisation")
  return { organisation, ...(yield* keyOf(organisation.id)) }
})

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/** A call with a key (and a JSON body and headers when given). */
export const adminCall = (key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(path, { method, headers: { ...bearer(key), ...headers }, ...(body === undefined ? {} : { body }) })

export const json = (response: RawResponse): Record<string, unknown> => JSON.parse(response.text) as Record<string, unknown>
export const data = (response: RawResponse): Record<string, unknown> => json(response)["data"] as Record<string, unknown>
export const list = (response: RawResponse): ReadonlyArray<Record<string, unknown>> =>
  json(response)["data"] as ReadonlyArray<Record<string, unknown>>
