/** The artist portal's resources on the wire: the summary and a section with its fields and values. */
import { Schema } from "effect"
import { type PortalSectionView, type PortalSummary, translateForm } from "@forms/domain"
import { envelopeOf, isoOrNull } from "../http/wireShapes.js"
import { FieldWire, toFieldWire, toValuesWire, ValuesWire } from "../forms/wire.js"
import { ValuesBody } from "../publicForms/wire.js"

const SectionStatus = Schema.Literals(["pending", "submitted"])

export const PortalSummarySectionWire = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  status: SectionStatus,
  submitted_at: Schema.NullOr(Schema.String),
  available: Schema.Boolean.annotate({
    description: "Whether the section maps (by case-sensitive name) to a section of the organisation's advance form."
  }),
  locked: Schema.Boolean.annotate({
    description: "Locked now: locked by the organiser, or its `locks_at` has passed (unless the organiser kept it open). " +
      "A locked section refuses a submit with 409 SECTION_LOCKED; it can still be read."
  }),
  due_at: Schema.NullOr(Schema.String).annotate({ description: "When the section is due (ISO 8601), or null." }),
  locks_at: Schema.NullOr(Schema.String).annotate({ description: "When the section locks by itself (ISO 8601), or null." }),
  overdue: Schema.Boolean.annotate({ description: "Pending, with `due_at` passed." })
}).annotate({ identifier: "PortalSummarySection" })

export const PortalSummaryWire = Schema.Struct({
  engagement: Schema.Struct({
    id: Schema.String,
    event: Schema.Struct({ id: Schema.String, name: Schema.String })
  }),
  artist: Schema.Struct({ id: Schema.String, name: Schema.String }),
  sections: Schema.Array(PortalSummarySectionWire)
}).annotate({ identifier: "PortalSummary" })
export type PortalSummaryWire = typeof PortalSummaryWire.Type

export const PortalSummaryEnvelope = envelopeOf(PortalSummaryWire, "PortalSummaryEnvelope")

export const PortalSectionWire = Schema.Struct({
  section: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    status: SectionStatus,
    submitted_at: Schema.NullOr(Schema.String)
  }),
  fields: Schema.Array(FieldWire),
  values: ValuesWire
}).annotate({ identifier: "PortalSection" })
export type PortalSectionWire = typeof PortalSectionWire.Type

export const PortalSectionEnvelope = envelopeOf(PortalSectionWire, "PortalSectionEnvelope")

/** The body of a section submit: the public routes' `{ values? }`, read by the same `decodeValuesBody`. */
export const PortalValuesBody = ValuesBody.annotate({
  identifier: "PortalValuesBody",
  description: "An absent body, or absent `values`, means `{}`. Only the values of the section's fields are used."
})

export const toPortalSummaryWire = (summary: PortalSummary): PortalSummaryWire => ({
  engagement: {
    id: summary.engagement.id,
    event: { id: summary.engagement.event.id, name: summary.engagement.event.name }
  },
  artist: { id: summary.artist.id, name: summary.artist.name },
  // The domain orders sections by position then id.
  sections: summary.sections.map((section) => ({
    id: section.id,
    name: section.name,
    status: section.status,
    submitted_at: isoOrNull(section.submitted_at),
    available: section.available,
    locked: section.locked,
    due_at: isoOrNull(section.due_at),
    locks_at: isoOrNull(section.locks_at),
    overdue: section.overdue
  }))
})

/** A section with its fields' texts in `language` (one of the advance form's languages, CONTRACT §19). */
export const toPortalSectionWire = (view: PortalSectionView, language: string): PortalSectionWire => ({
  section: {
    id: view.section.id,
    name: view.section.name,
    status: view.section.status,
    submitted_at: isoOrNull(view.section.submitted_at)
  },
  // The domain orders fields by position then slug; the wire drops `maps_to` and option tags.
  fields: translateForm({ ...view, name: "", sections: [] }, language).fields.map(toFieldWire),
  values: toValuesWire(view.values)
})
