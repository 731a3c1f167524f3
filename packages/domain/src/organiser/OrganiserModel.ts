/** The organiser side's records (CONTRACT §12): organisations, API keys, events, slots, sections, audit, pages. */
import type { EventSectionRecord } from "../shifts/RegistrationData.js"

/** Who performs an organiser request: the key's organisation (every query is scoped by it) and the key. */
export interface Actor {
  readonly organisation_id: string
  /** Null for writes of the CLI (no key involved). */
  readonly api_key_id: string | null
}

export interface Organisation {
  readonly id: string
  readonly name: string
}

/** An API key as stored: never the key itself, only its first characters for recognising it. */
export interface ApiKeyRecord {
  readonly id: string
  readonly organisation_id: string
  readonly name: string | null
  /** The first 8 characters of the key (`fok_` and 4 more for generated keys). */
  readonly prefix: string
  readonly created_at: number
  readonly last_used_at: number | null
  readonly revoked_at: number | null
}

export interface AdminEvent {
  readonly id: string
  readonly name: string
  readonly parent_event_id: string | null
  /** Epoch ms. */
  readonly created_at: number
}

export interface AdminTimeSlot {
  readonly id: string
  readonly event_id: string
  readonly event_name: string
  readonly name: string
  /** YYYY-MM-DD */
  readonly date: string
  /** HH:MM */
  readonly start_time: string
  readonly end_time: string
  /** A positive integer, or null: unlimited. */
  readonly capacity: number | null
  /** Submitted submissions holding a place on the slot, from every form (CONTRACT §15). */
  readonly holders: number
}

/** An event section as the organiser sees it: the stored record (ports/RegistrationData). */
export type AdminEventSection = EventSectionRecord

export interface AuditEntry {
  readonly id: string
  /** Epoch ms. */
  readonly at: number
  readonly api_key_id: string | null
  /** `<resource>.<created|updated|deleted>` and the special actions of §12. */
  readonly action: string
  readonly resource_type: string
  readonly resource_id: string
}

/** What an audit entry records besides its actor and time: ids only, never values. */
export interface AuditRecord {
  readonly action: string
  readonly resource_type: string
  readonly resource_id: string
}

// Keyset positions: the sort key of the last row of a page (CONTRACT §12 order of each list).
export interface CreatedKey {
  readonly created_at: number
  readonly id: string
}
export interface SlotKey {
  readonly date: string
  readonly start_time: string
  readonly name: string
  readonly id: string
}
export interface SectionKey {
  readonly position: number
  readonly name: string
  readonly id: string
}

export interface PageRequest<K> {
  /** 1 to 200. */
  readonly limit: number
  /** The key of the last row of the page before; rows strictly after it are listed. */
  readonly after: K | undefined
}

export interface Page<A> {
  readonly items: ReadonlyArray<A>
  /** Whether a row follows the last item. */
  readonly more: boolean
}

export const slotKeyOf = (slot: AdminTimeSlot): SlotKey => ({
  date: slot.date,
  start_time: slot.start_time,
  name: slot.name,
  id: slot.id
})

export const sectionKeyOf = (section: AdminEventSection): SectionKey => ({
  position: section.position,
  name: section.name,
  id: section.id
})

export const eventKeyOf = (event: AdminEvent): CreatedKey => ({ created_at: event.created_at, id: event.id })
export const auditKeyOf = (entry: AuditEntry): CreatedKey => ({ created_at: entry.at, id: entry.id })

// Inputs after validation.
export interface EventInput {
  readonly name: string
  readonly parent_event_id: string | null
}
export interface EventPatch {
  readonly name?: string
  readonly parent_event_id?: string | null
}
export interface SlotInput {
  readonly name: string
  readonly date: string
  readonly start_time: string
  readonly end_time: string
  readonly capacity: number | null
}
export type SlotPatch = Partial<SlotInput>
export interface SectionInput {
  readonly name: string
  readonly type: string
  readonly show_in_registration: boolean
  readonly position: number
}
export type SectionPatch = Partial<SectionInput>

export interface AdminArtist {
  readonly id: string
  readonly name: string
  /** Epoch ms of the soft delete, or null. */
  readonly deleted_at: number | null
  readonly created_at: number
}

/** An artist with what §5 applied to it from the portal. */
export interface ArtistDetail extends AdminArtist {
  readonly profile: Readonly<Record<string, unknown>>
}

export const artistKeyOf = (artist: AdminArtist): CreatedKey => ({ created_at: artist.created_at, id: artist.id })

export interface AdminAdvanceSection {
  readonly id: string
  readonly name: string
  readonly position: number
  readonly status: "pending" | "submitted"
  readonly submitted_at: number | null
}

export interface AdminEngagement {
  readonly id: string
  readonly event_id: string
  readonly master_artist_id: string
  readonly advance_sections: ReadonlyArray<AdminAdvanceSection>
  readonly created_at: number
}

/** An engagement with what artists sent: `advance` (applied by §5) and the advance draft's `values`. */
export interface EngagementDetail extends AdminEngagement {
  readonly advance: Readonly<Record<string, unknown>>
  readonly values: Readonly<Record<string, unknown>>
}

/** A new engagement after validation: its references are checked by the port (one transaction). */
export interface EngagementInput {
  readonly event_id: string
  readonly master_artist_id: string
  readonly advance_sections: ReadonlyArray<{ readonly name: string; readonly position: number }>
}

export const engagementKeyOf = (e: AdminEngagement): CreatedKey => ({ created_at: e.created_at, id: e.id })
