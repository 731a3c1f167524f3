/** The seed of the portal and events conformance suites and use-case tests: a fixture (CONTRACT §10) of its own. */
import type { FormFieldInput } from "../../forms/FormField.js"
import { type ConformanceSeed, seedField, type SeedFormSchema, seedSchemaDefaults } from "../Seed.js"

export interface SeedMasterArtist {
  readonly id: string
  readonly organisation_id: string
  readonly name: string
  /** ISO 8601, as in a fixture. */
  readonly deleted_at: string | null
}

export interface SeedAdvanceSection {
  readonly id: string
  readonly name: string
  readonly position: number
}

export interface SeedEngagement {
  readonly id: string
  readonly organisation_id: string
  readonly event_id: string
  readonly master_artist_id: string
  /** Plaintext in a fixture; a store keeps only its SHA-256 hash. */
  readonly portal_token: string | null
  readonly advance_sections: ReadonlyArray<SeedAdvanceSection>
}

/** The portal part of a fixture. */
export interface PortalSeed {
  readonly master_artists: ReadonlyArray<SeedMasterArtist>
  readonly engagements: ReadonlyArray<SeedEngagement>
}

export type PortalFixture = ConformanceSeed & PortalSeed

export const portalIds = {
  organisation: "org-portal",
  bareOrganisation: "org-portal-bare",
  festival: "ev-portal-fest",
  bareEvent: "ev-portal-bare",
  advance: "fs-portal-advance",
  volunteer: "fs-portal-volunteer",
  travelSection: "fss-travel",
  hospitalitySection: "fss-hospitality",
  artist: "ma-portal-main",
  goneArtist: "ma-portal-gone",
  bareArtist: "ma-portal-bare",
  engagement: "en-portal-main",
  secondEngagement: "en-portal-second",
  goneEngagement: "en-portal-gone",
  bareEngagement: "en-portal-bare",
  /** Advance sections of the main engagement. */
  travel: "as-travel",
  travelLower: "as-travel-lower",
  hospitality: "as-hospitality",
  rider: "as-rider",
  secondTravel: "as-second-travel",
  goneTravel: "as-gone-travel",
  bareTravel: "as-bare-travel",
  /** Engagements only the conformance suite writes to (one per concern, so tests never see each other). */
  confArtist: "ma-conf-a",
  confValuesArtist: "ma-conf-values",
  confSubmit: "en-conf-submit",
  confRace: "en-conf-race",
  confValues: "en-conf-values",
  confSubmitTravel: "as-conf-submit-travel",
  confSubmitHospitality: "as-conf-submit-hospitality",
  confRaceTravel: "as-conf-race-travel",
  confRaceHospitality: "as-conf-race-hospitality",
  confRounds: "en-conf-rounds",
  confRoundsTravel: "as-conf-rounds-travel",
  confRevision: "en-conf-revision",
  confRevisionTravel: "as-conf-revision-travel",
  confSave: "en-conf-save",
  confSaveTravel: "as-conf-save-travel"
} as const

export const portalTokens = {
  engagement: "ptok-portal-main-0000000001",
  secondEngagement: "ptok-portal-second-000000001",
  goneEngagement: "ptok-portal-gone-0000000001",
  bareEngagement: "ptok-portal-bare-0000000001",
  volunteer: "tok-portal-volunteer-0001",
  confSubmit: "ptok-conf-submit-00000000001",
  confRace: "ptok-conf-race-0000000000001",
  confValues: "ptok-conf-values-00000000001",
  confRounds: "ptok-conf-rounds-00000000001",
  confRevision: "ptok-conf-revision-000000001",
  confSave: "ptok-conf-save-0000000000001"
} as const

/** An instant at which the artist of the gone engagement is already soft-deleted. */
export const portalNow = "2027-07-01T00:00:00.000Z"

const advanceFields: ReadonlyArray<FormFieldInput> = [
  seedField({ id: "fa-arrival", slug: "arrival_date", type: "date", is_required: true, section_id: portalIds.travelSection, position: 1, maps_to: "engagement.arrival_date" }),
  seedField({ id: "fa-flight", slug: "flight_number", section_id: portalIds.travelSection, position: 2, maps_to: "engagement.flight" }),
  seedField({ id: "fa-travellers", slug: "travellers", type: "numeric", section_id: portalIds.travelSection, position: 3, validation_rules: { min: 1, max: 20 } }),
  // Same position as `flight_number`: ordered by slug after position.
  seedField({ id: "fa-airline", slug: "airline", section_id: portalIds.travelSection, position: 2 }),
  seedField({ id: "fa-dietary", slug: "dietary", type: "select", is_required: true, section_id: portalIds.hospitalitySection, position: 1, options: ["none", "vegetarian", "vegan"], maps_to: "artist.dietary" }),
  seedField({ id: "fa-contact", slug: "contact_email", type: "email", section_id: portalIds.hospitalitySection, position: 2, maps_to: "artist.email" }),
  seedField({ id: "fa-hotel", slug: "hotel", section_id: portalIds.hospitalitySection, position: 3, maps_to: "engagement.hotel" }),
  seedField({ id: "fa-notes", slug: "notes", type: "textarea", section_id: portalIds.hospitalitySection, position: 4, maps_to: null }),
  seedField({ id: "fa-free", slug: "free_text", section_id: null, position: 1, maps_to: "artist.free_text" })
]

const volunteerFields: ReadonlyArray<FormFieldInput> = [
  seedField({ id: "fpv-email", slug: "email", type: "email", position: 2 }),
  seedField({ id: "fpv-work-email", slug: "work_email", type: "email", position: 1 }),
  seedField({ id: "fpv-phone", slug: "phone", type: "phone", position: 3 }),
  seedField({ id: "fpv-phone2", slug: "phone_alt", type: "phone", position: 4 }),
  seedField({
    id: "fpv-shirt",
    slug: "shirt",
    type: "select",
    position: 5,
    options: [{ value: "S", label: "Small", tags: ["shirt-s"] }, { value: "M", label: "Medium", tags: ["shirt-m", "crew"] }, "L"]
  }),
  seedField({
    id: "fpv-skills",
    slug: "skills",
    type: "checkboxes",
    position: 6,
    options: [{ value: "1", label: "Bar", tags: ["bar"] }, { value: "stage", label: "Stage", tags: ["stage", "crew"] }]
  })
]

const schema = (fields: Partial<SeedFormSchema> & Pick<SeedFormSchema, "id" | "name" | "type">): SeedFormSchema => ({
  ...seedSchemaDefaults,
  organisation_id: portalIds.organisation,
  event_id: portalIds.festival,
  ...fields
})

function conformanceEngagement(
  id: string,
  artistId: string,
  token: string,
  sections: ReadonlyArray<SeedAdvanceSection>
): SeedEngagement {
  return {
    id,
    organisation_id: portalIds.organisation,
    event_id: portalIds.festival,
    master_artist_id: artistId,
    portal_token: token,
    advance_sections: sections
  }
}

export const portalFixture: PortalFixture = {
  organisations: [
    { id: portalIds.organisation, name: "Portal Org" },
    { id: portalIds.bareOrganisation, name: "Portal Org without advance" }
  ],
  events: [
    { id: portalIds.festival, organisation_id: portalIds.organisation, name: "Portal Festival 2027", parent_event_id: null },
    { id: portalIds.bareEvent, organisation_id: portalIds.bareOrganisation, name: "Bare Event", parent_event_id: null }
  ],
  event_sections: [],
  time_slots: [],
  form_schemas: [
    schema({
      id: portalIds.advance,
      name: "Artist advance",
      type: "artist_advance",
      // Status and token do not matter to the portal.
      status: "draft",
      sections: [
        { id: portalIds.travelSection, name: "Travel", position: 1 },
        { id: portalIds.hospitalitySection, name: "Hospitality", position: 2 },
        { id: "fss-technical", name: "Technical", position: 3 }
      ],
      fields: advanceFields
    }),
    schema({
      id: portalIds.volunteer,
      name: "Portal volunteers",
      type: "volunteer",
      public_token: portalTokens.volunteer,
      tags: ["volunteer", "2027"],
      fields: volunteerFields
    })
  ],
  master_artists: [
    { id: portalIds.artist, organisation_id: portalIds.organisation, name: "The Main Act", deleted_at: null },
    { id: portalIds.goneArtist, organisation_id: portalIds.organisation, name: "Gone Act", deleted_at: "2027-06-01T00:00:00.000Z" },
    { id: portalIds.bareArtist, organisation_id: portalIds.bareOrganisation, name: "Bare Act", deleted_at: null },
    { id: portalIds.confArtist, organisation_id: portalIds.organisation, name: "Conformance Act", deleted_at: null },
    { id: portalIds.confValuesArtist, organisation_id: portalIds.organisation, name: "Values Act", deleted_at: null }
  ],
  engagements: [
    {
      id: portalIds.engagement,
      organisation_id: portalIds.organisation,
      event_id: portalIds.festival,
      master_artist_id: portalIds.artist,
      portal_token: portalTokens.engagement,
      advance_sections: [
        { id: portalIds.rider, name: "Rider", position: 3 },
        { id: portalIds.travelLower, name: "travel", position: 2 },
        { id: portalIds.travel, name: "Travel", position: 2 },
        { id: portalIds.hospitality, name: "Hospitality", position: 1 }
      ]
    },
    {
      id: portalIds.secondEngagement,
      organisation_id: portalIds.organisation,
      event_id: portalIds.festival,
      master_artist_id: portalIds.artist,
      portal_token: portalTokens.secondEngagement,
      advance_sections: [{ id: portalIds.secondTravel, name: "Travel", position: 1 }]
    },
    {
      id: portalIds.goneEngagement,
      organisation_id: portalIds.organisation,
      event_id: portalIds.festival,
      master_artist_id: portalIds.goneArtist,
      portal_token: portalTokens.goneEngagement,
      advance_sections: [{ id: portalIds.goneTravel, name: "Travel", position: 1 }]
    },
    {
      id: portalIds.bareEngagement,
      organisation_id: portalIds.bareOrganisation,
      event_id: portalIds.bareEvent,
      master_artist_id: portalIds.bareArtist,
      portal_token: portalTokens.bareEngagement,
      advance_sections: [{ id: portalIds.bareTravel, name: "Travel", position: 1 }]
    },
    conformanceEngagement(portalIds.confSubmit, portalIds.confArtist, portalTokens.confSubmit, [
      { id: portalIds.confSubmitTravel, name: "Travel", position: 1 },
      { id: portalIds.confSubmitHospitality, name: "Hospitality", position: 2 }
    ]),
    conformanceEngagement(portalIds.confRace, portalIds.confArtist, portalTokens.confRace, [
      { id: portalIds.confRaceTravel, name: "Travel", position: 1 },
      { id: portalIds.confRaceHospitality, name: "Hospitality", position: 2 }
    ]),
    conformanceEngagement(portalIds.confValues, portalIds.confValuesArtist, portalTokens.confValues, []),
    conformanceEngagement(portalIds.confRounds, portalIds.confArtist, portalTokens.confRounds, [
      { id: portalIds.confRoundsTravel, name: "Travel", position: 1 }
    ]),
    conformanceEngagement(portalIds.confRevision, portalIds.confArtist, portalTokens.confRevision, [
      { id: portalIds.confRevisionTravel, name: "Travel", position: 1 }
    ]),
    conformanceEngagement(portalIds.confSave, portalIds.confArtist, portalTokens.confSave, [
      { id: portalIds.confSaveTravel, name: "Travel", position: 1 }
    ])
  ]
}
