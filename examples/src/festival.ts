// A festival with one published volunteer form, in the shape of a fixture (docs/operations.md, "Fixtures").
import { type ConformanceSeed, seedField } from "@forms/domain/memory"

export const formToken = "volunteers-2027-public-token"

export const festival: ConformanceSeed = {
  organisations: [{ id: "org-1", name: "Summer Sounds" }],
  events: [{ id: "ev-1", organisation_id: "org-1", name: "Summer Sounds 2027", parent_event_id: null }],
  event_sections: [],
  time_slots: [],
  form_schemas: [{
    id: "form-volunteers",
    organisation_id: "org-1",
    event_id: "ev-1",
    name: "Volunteers",
    type: "volunteer",
    status: "published",
    public_token: formToken,
    previous_public_token: null,
    token_rotated_at: null,
    opens_at: null,
    closes_at: null,
    tags: ["volunteer"],
    sections: [],
    fields: [
      seedField({ id: "f-name", slug: "full_name", label: "Full name", is_required: true }),
      seedField({ id: "f-email", slug: "email", label: "Email", type: "email", is_required: true, is_unique: true, position: 2 })
    ]
  }]
}
