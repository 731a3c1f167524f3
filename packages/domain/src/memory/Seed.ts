/** The seed data the in-memory adapters and the port conformance suite start from: the fixture shape of CONTRACT §10. */
import { type FormFieldInput, normalizeField } from "../forms/FormField.js"
import type { EventRef, FormSchema, FormSection, FormStatus } from "../forms/FormSchema.js"
import type { EventRecord, EventSectionRecord, TimeSlotRecord } from "../shifts/RegistrationData.js"

export interface SeedOrganisation {
  readonly id: string
  readonly name: string
}

export interface SeedEvent extends EventRecord {
  readonly organisation_id: string
}

export interface SeedFormSchema {
  readonly id: string
  readonly organisation_id: string
  readonly event_id: string | null
  readonly name: string
  readonly type: string
  readonly status: FormStatus
  readonly public_token: string | null
  readonly previous_public_token: string | null
  /** ISO 8601, as in a fixture. */
  readonly token_rotated_at: string | null
  readonly opens_at: string | null
  readonly closes_at: string | null
  readonly tags: ReadonlyArray<string>
  readonly sections: ReadonlyArray<FormSection>
  readonly fields: ReadonlyArray<FormFieldInput>
}

/**
 * A subset of the fixture of CONTRACT §10 (no artists or engagements): a `ConformanceSeed` is a valid
 * fixture, so a store with a fixture loader seeds itself from it unchanged.
 */
export interface ConformanceSeed {
  readonly organisations: ReadonlyArray<SeedOrganisation>
  readonly events: ReadonlyArray<SeedEvent>
  readonly event_sections: ReadonlyArray<EventSectionRecord>
  readonly time_slots: ReadonlyArray<TimeSlotRecord>
  readonly form_schemas: ReadonlyArray<SeedFormSchema>
}

export const emptySeed: ConformanceSeed = {
  organisations: [],
  events: [],
  event_sections: [],
  time_slots: [],
  form_schemas: []
}

const epochMs = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso))

/** The domain's view of a seeded schema (as `FormSchemas.findByToken` answers it), with the given revision. */
export const formSchemaFromSeed = (
  seed: ConformanceSeed,
  schema: SeedFormSchema,
  revision = 1
): FormSchema => {
  const event = schema.event_id === null ? undefined : seed.events.find((e) => e.id === schema.event_id)
  const eventRef: EventRef | null = event === undefined ? null : { id: event.id, name: event.name }
  return {
    id: schema.id,
    organisation_id: schema.organisation_id,
    revision,
    event: eventRef,
    name: schema.name,
    type: schema.type,
    status: schema.status,
    public_token: schema.public_token,
    previous_public_token: schema.previous_public_token,
    token_rotated_at: epochMs(schema.token_rotated_at),
    opens_at: epochMs(schema.opens_at),
    closes_at: epochMs(schema.closes_at),
    tags: [...schema.tags],
    sections: schema.sections.map((section) => ({ id: section.id, name: section.name, position: section.position })),
    fields: schema.fields.map(normalizeField)
  }
}

/** A field definition with the defaults of a plain optional text field. */
export const seedField = (
  field: Partial<FormFieldInput> & { readonly id: string; readonly slug: string }
): FormFieldInput => ({
  section_id: null,
  label: field.slug,
  type: "text",
  is_required: false,
  options: null,
  validation_rules: null,
  is_unique: false,
  position: 1,
  maps_to: null,
  ...field
})

/** What a seed form schema is unless a test says otherwise: published, open at any time, untagged, empty. */
export const seedSchemaDefaults = {
  status: "published",
  public_token: null,
  previous_public_token: null,
  token_rotated_at: null,
  opens_at: null,
  closes_at: null,
  tags: [],
  sections: [],
  fields: []
} as const satisfies Partial<SeedFormSchema>
