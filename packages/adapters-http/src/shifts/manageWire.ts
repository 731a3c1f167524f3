/** Managing one's shifts on the wire (CONTRACT §22): the manage answer, and the link an answer carries. */
import { Schema } from "effect"
import type { ManageView } from "@forms/domain"
import { Remaining } from "../http/wireNumbers.js"
import { envelopeOf } from "../http/wireShapes.js"
import { TimeSlotWire, toTimeSlotWire } from "./wire.js"

export const ManagedPlaceWire = Schema.Struct({
  slot: TimeSlotWire,
  status: Schema.Literals(["confirmed", "waitlisted", "expired"]).annotate({
    description: "A waiting place of a slot that has started is expired."
  }),
  position: Schema.NullOr(Remaining).annotate({ description: "The current rank on the waitlist, from 1; null otherwise." })
}).annotate({ identifier: "ManagedPlace" })

export const ManageWire = Schema.Struct({
  form: Schema.Struct({ name: Schema.String }),
  places: Schema.Array(ManagedPlaceWire)
}).annotate({ identifier: "Manage" })
export const ManageEnvelope = envelopeOf(ManageWire, "ManageEnvelope")

export const toManageWire = (view: ManageView): typeof ManageWire.Type => ({
  form: { name: view.form.name },
  places: view.places.map((place) => ({ slot: toTimeSlotWire(place.slot), status: place.status, position: place.position }))
})

export const ManageLinkWire = Schema.Struct({
  manage_url: Schema.String.annotate({ description: "`{PUBLIC_BASE_URL}/m/{manage_token}`: shown once; the old link stops working." })
}).annotate({ identifier: "ManageLink" })
export const ManageLinkEnvelope = envelopeOf(ManageLinkWire, "ManageLinkEnvelope")

/** Where a manage token's page is: `/m/{token}` under the public base. */
export const manageUrlOf = (base: string, token: string): string => `${base}/m/${token}`

/** 201: a new manage link. */
export class ManageLinkCreated extends Schema.Class<ManageLinkCreated>("ManageLinkCreated")({ data: ManageLinkWire }, {
  httpApiStatus: 201,
  description: "A new manage link, shown this once."
}) {}
