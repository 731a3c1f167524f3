/**
 * Which webhook endpoints an outbox event goes to, as SQL over the event's row: its organisation, its form, the
 * endpoints subscribed to its type, and whether it may still be sent. Shared by the outbox's fan-out (events/SqlOutbox)
 * and a replay (SqlWebhookDeliveries).
 */
/**
 * The organisation of an outbox event `e` (`payload`): its own `organisation_id`, else its engagement's
 * (`section.submitted`, `section.locked`, `section.reopened`).
 */
export const eventOrganisation = (e: string) =>
  `COALESCE(${e}.payload->>'organisation_id',
    (SELECT g.organisation_id FROM engagements g WHERE g.id = ${e}.payload->>'engagement_id'))`

/** The form of a message: the organisation's artist_advance schema for an advance section's event, else `schema_id`. */
export const eventForm = (e: string, org: string) =>
  `CASE WHEN ${e}.type IN ('section.submitted', 'section.locked', 'section.reopened')
    THEN (SELECT f.id FROM form_schemas f WHERE f.organisation_id = ${org} AND f.type = 'artist_advance'
          ORDER BY f.id COLLATE "C" LIMIT 1)
    ELSE ${e}.payload->>'schema_id' END`

/** Whether endpoint `w` is subscribed to the type of `e`. */
export const subscribed = (w: string, e: string) => `(${e}.type = ANY(${w}.event_types) OR '*' = ANY(${w}.event_types))`

/** Erasure marks an event's payload `"erased": true`: never sent, never replayed. */
export const notErased = (e: string) => `NOT (${e}.payload @> '{"erased": true}'::jsonb)`
/** Neither erased nor emptied by retention (CONTRACT §12): an event that can still be sent. */
export const sendable = (e: string) => `${notErased(e)} AND ${e}.payload <> '{}'::jsonb`

