/** Fixtures of the adapter's own tests: a valid one covering every table, and a broken one with five problems. */

export const ids = {
  organisation: "org-test",
  festival: "ev-test-fest",
  day: "ev-test-day",
  volunteer: "fs-test-volunteer",
  advance: "fs-test-advance",
  artist: "ma-test",
  engagement: "en-test"
} as const

export const tokens = {
  volunteer: "tok-test-volunteer-000001",
  previous: "tok-test-volunteer-prev-01",
  advance: "tok-test-advance-00000001",
  portal: "portal-test-token-0000000001"
} as const

const field = (id: string, slug: string, extra: Record<string, unknown> = {}) => ({
  id,
  section_id: null,
  slug,
  label: slug,
  type: "text",
  is_required: false,
  options: null,
  validation_rules: null,
  is_unique: false,
  position: 1,
  maps_to: null,
  ...extra
})

export const validFixture = () => ({
  organisations: [{ id: ids.organisation, name: "Test Org" }],
  events: [
    { id: ids.festival, organisation_id: ids.organisation, name: "Test Festival", parent_event_id: null },
    { id: ids.day, organisation_id: ids.organisation, name: "Test Day", parent_event_id: ids.festival }
  ],
  event_sections: [
    { id: "es-test-bar", event_id: ids.festival, name: "Bar", type: "standard", show_in_registration: true, position: 1 },
    { id: "es-test-gate", event_id: ids.day, name: "Gate", position: 2 }
  ],
  time_slots: [
    { id: "ts-test-night", event_id: ids.day, name: "Night", date: "2027-08-20", start_time: "22:00", end_time: "02:00" },
    { id: "ts-test-morning", event_id: ids.festival, name: "Morning", date: "2027-08-20", start_time: "08:00", end_time: "12:00" }
  ],
  form_schemas: [
    {
      id: ids.volunteer,
      organisation_id: ids.organisation,
      event_id: ids.festival,
      name: "Test volunteers",
      type: "volunteer",
      status: "published",
      public_token: tokens.volunteer,
      previous_public_token: tokens.previous,
      token_rotated_at: "2027-06-30T12:00:00Z",
      opens_at: null,
      closes_at: "2027-12-31T00:00:00.000Z",
      tags: ["volunteer"],
      sections: [{ id: "fs-test-s2", name: "Later", position: 2 }, { id: "fs-test-s1", name: "About you", position: 1 }],
      fields: [
        field("ff-test-shirt", "shirt", { options: ["S", { value: "M", label: "Medium", tags: ["m"] }], position: 3 }),
        field("ff-test-email", "email", { type: "email", is_required: true, is_unique: true, section_id: "fs-test-s1" }),
        field("ff-test-name", "name", { is_required: true, position: 2, section_id: "fs-test-s1" }),
        field("ff-test-age", "age", { type: "numeric", validation_rules: { min: 16, max: 99 }, position: 4 })
      ]
    },
    {
      id: ids.advance,
      organisation_id: ids.organisation,
      event_id: null,
      name: "Artist advance",
      type: "artist_advance",
      status: "published",
      public_token: tokens.advance,
      sections: [{ id: "fs-test-travel", name: "Travel", position: 1 }],
      fields: [field("ff-test-arrival", "arrival", { section_id: "fs-test-travel", maps_to: "engagement.arrival" })]
    }
  ],
  master_artists: [{ id: ids.artist, organisation_id: ids.organisation, name: "The Testers", deleted_at: null }],
  engagements: [{
    id: ids.engagement,
    organisation_id: ids.organisation,
    event_id: ids.festival,
    master_artist_id: ids.artist,
    portal_token: tokens.portal,
    advance_sections: [{ id: "as-test-travel", name: "Travel", position: 1 }]
  }]
})

/** Five different problems: an unknown organisation, a bad slug, a regex that does not compile, a shared token, a bad date. */
export const brokenFixture = () => {
  const fixture = validFixture()
  const [volunteer, advance] = fixture.form_schemas
  return {
    ...fixture,
    events: [...fixture.events, { id: "ev-test-orphan", organisation_id: "org-missing", name: "Orphan", parent_event_id: null }],
    time_slots: [...fixture.time_slots, { id: "ts-test-bad", event_id: ids.day, name: "Bad", date: "2027-02-30", start_time: "08:00", end_time: "09:00" }],
    form_schemas: [
      {
        ...volunteer,
        fields: [
          ...(volunteer?.fields ?? []),
          field("ff-test-bad-slug", "Bad Slug"),
          field("ff-test-bad-regex", "code", { validation_rules: { regex: "([a-z" } })
        ]
      },
      { ...advance, public_token: tokens.volunteer }
    ]
  }
}
