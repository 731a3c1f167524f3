/** Helpers of the organiser-route tests: keys made through the port, bearer calls, the admin route table. */
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

/** A call with a key (and a JSON body when given). */
export const adminCall = (key: string, method: string, path: string, body?: unknown) =>
  call(path, { method, headers: bearer(key), ...(body === undefined ? {} : { body }) })

export const json = (response: RawResponse): Record<string, unknown> => JSON.parse(response.text) as Record<string, unknown>
export const data = (response: RawResponse): Record<string, unknown> => json(response)["data"] as Record<string, unknown>
export const list = (response: RawResponse): ReadonlyArray<Record<string, unknown>> =>
  json(response)["data"] as ReadonlyArray<Record<string, unknown>>

/** Ids of an organisation's resources, one of each kind, made fresh for one route. */
export interface Ids {
  /** An event nothing refers to. */
  readonly event: string
  /** The event of `slot` and `section`. */
  readonly holder: string
  readonly slot: string
  readonly section: string
  readonly artist: string
  readonly engagement: string
}

/** Makes a fresh set of resources with `key` through the API itself. */
export const freshIds = (key: string) =>
  Effect.gen(function*() {
    const post = (path: string, body: unknown) =>
      Effect.map(adminCall(key, "POST", path, body), (r) => {
        if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text}`)
        return String(data(r)["id"])
      })
    const holder = yield* post("/admin/events", { name: "Holder" })
    const slot = yield* post(`/admin/events/${holder}/time-slots`, {
      name: "Morning",
      date: "2027-08-20",
      start_time: "08:00",
      end_time: "12:00"
    })
    const section = yield* post(`/admin/events/${holder}/sections`, { name: "Bar" })
    const event = yield* post("/admin/events", { name: "Empty" })
    const artist = yield* post("/admin/artists", { name: "The Band" })
    const engagement = yield* post("/admin/engagements", {
      event_id: holder,
      master_artist_id: artist,
      advance_sections: [{ name: "Travel", position: 1 }]
    })
    return { event, holder, slot, section, artist, engagement } satisfies Ids
  })

type Kind = "event" | "slot" | "section" | "artist" | "engagement"

export interface AdminRoute {
  readonly method: string
  /** As in the API definition. */
  readonly template: string
  readonly path: (ids: Ids) => string
  readonly body?: unknown
  /** A body that names resources by id (instead of `body`). */
  readonly bodyOf?: (ids: Ids) => unknown
  /**
   * Body members that name resources: ids of another organisation (or unknown ones) answer 422 with
   * rule `in` on each of them.
   */
  readonly references?: ReadonlyArray<string>
  readonly status: number
  /** The resource its path names (answered 404 with `code` for an id of another organisation). */
  readonly kind?: Kind
  /** Members of `data` (of each item for lists). */
  readonly members?: ReadonlyArray<string>
  readonly isList?: boolean
}

/** The body a route is called with for `ids`. */
export const bodyFor = (route: AdminRoute, ids: Ids): unknown => route.bodyOf?.(ids) ?? route.body

/** Ids that name nothing. */
export const unknownIds: Ids = { event: "nope", holder: "nope", slot: "nope", section: "nope", artist: "nope", engagement: "nope" }

export const notFoundCode: Record<Kind, string> = {
  event: "EVENT_NOT_FOUND",
  slot: "TIME_SLOT_NOT_FOUND",
  section: "EVENT_SECTION_NOT_FOUND",
  artist: "ARTIST_NOT_FOUND",
  engagement: "ENGAGEMENT_NOT_FOUND"
}

const eventMembers = ["created_at", "id", "name", "parent_event_id"]
const slotMembers = [
  "capacity", "date", "duration_hours", "end_time", "event_id", "event_name", "id", "name", "remaining", "start_time"
]
const sectionMembers = ["event_id", "id", "name", "position", "show_in_registration", "type"]
const engagementMembers = ["advance_sections", "created_at", "event_id", "id", "master_artist_id"]
const artistMembers = ["deleted_at", "id", "name"]
const slotBody = { name: "Evening", date: "2027-08-21", start_time: "22:00", end_time: "02:00", capacity: 4 }

/** Every organiser route (the test checks this list against the API definition). */
export const adminRoutes: ReadonlyArray<AdminRoute> = [
  { method: "GET", template: "/admin/organisation", path: () => "/admin/organisation", status: 200, members: ["id", "name"] },
  { method: "GET", template: "/admin/events", path: () => "/admin/events", status: 200, members: eventMembers, isList: true },
  { method: "POST", template: "/admin/events", path: () => "/admin/events", body: { name: "New" }, status: 201, members: eventMembers },
  { method: "GET", template: "/admin/events/:eventId", path: (i) => `/admin/events/${i.event}`, status: 200, kind: "event", members: eventMembers },
  { method: "PATCH", template: "/admin/events/:eventId", path: (i) => `/admin/events/${i.event}`, body: { name: "Renamed" }, status: 200, kind: "event", members: eventMembers },
  { method: "DELETE", template: "/admin/events/:eventId", path: (i) => `/admin/events/${i.event}`, status: 204, kind: "event" },
  { method: "GET", template: "/admin/events/:eventId/time-slots", path: (i) => `/admin/events/${i.holder}/time-slots`, status: 200, kind: "event", members: slotMembers, isList: true },
  { method: "POST", template: "/admin/events/:eventId/time-slots", path: (i) => `/admin/events/${i.event}/time-slots`, body: slotBody, status: 201, kind: "event", members: slotMembers },
  { method: "PATCH", template: "/admin/time-slots/:slotId", path: (i) => `/admin/time-slots/${i.slot}`, body: { capacity: null }, status: 200, kind: "slot", members: slotMembers },
  { method: "DELETE", template: "/admin/time-slots/:slotId", path: (i) => `/admin/time-slots/${i.slot}`, status: 204, kind: "slot" },
  { method: "GET", template: "/admin/events/:eventId/sections", path: (i) => `/admin/events/${i.holder}/sections`, status: 200, kind: "event", members: sectionMembers, isList: true },
  { method: "POST", template: "/admin/events/:eventId/sections", path: (i) => `/admin/events/${i.event}/sections`, body: { name: "Stage", position: 2 }, status: 201, kind: "event", members: sectionMembers },
  { method: "PATCH", template: "/admin/event-sections/:sectionId", path: (i) => `/admin/event-sections/${i.section}`, body: { show_in_registration: false }, status: 200, kind: "section", members: sectionMembers },
  { method: "DELETE", template: "/admin/event-sections/:sectionId", path: (i) => `/admin/event-sections/${i.section}`, status: 204, kind: "section" },
  { method: "GET", template: "/admin/artists", path: () => "/admin/artists", status: 200, members: artistMembers, isList: true },
  { method: "POST", template: "/admin/artists", path: () => "/admin/artists", body: { name: "New Band" }, status: 201, members: artistMembers },
  { method: "GET", template: "/admin/artists/:artistId", path: (i) => `/admin/artists/${i.artist}`, status: 200, kind: "artist", members: [...artistMembers, "profile"].sort() },
  { method: "DELETE", template: "/admin/artists/:artistId", path: (i) => `/admin/artists/${i.artist}`, status: 204, kind: "artist" },
  { method: "GET", template: "/admin/engagements", path: () => "/admin/engagements", status: 200, members: engagementMembers, isList: true },
  {
    method: "POST",
    template: "/admin/engagements",
    path: () => "/admin/engagements",
    bodyOf: (i) => ({ event_id: i.event, master_artist_id: i.artist, advance_sections: [{ name: "Rider", position: 0 }] }),
    references: ["event_id", "master_artist_id"],
    status: 201,
    members: engagementMembers
  },
  { method: "GET", template: "/admin/engagements/:engagementId", path: (i) => `/admin/engagements/${i.engagement}`, status: 200, kind: "engagement", members: [...engagementMembers, "advance", "values"].sort() },
  { method: "POST", template: "/admin/engagements/:engagementId/portal-link", path: (i) => `/admin/engagements/${i.engagement}/portal-link`, status: 200, kind: "engagement", members: ["page_url", "portal_url"] },
  { method: "GET", template: "/admin/audit-log", path: () => "/admin/audit-log", status: 200, members: ["action", "api_key_id", "at", "id", "resource_id", "resource_type"], isList: true }
]
