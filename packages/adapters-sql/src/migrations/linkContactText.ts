/**
 * The text of `forms_link_contact` as migrations 0004 and 0011 write it: 0011 replaces 0004's function with the same
 * steps and one more before the answer. Frozen: both migrations have shipped, so neither text may change; a later
 * change to the function writes its own text in its own migration.
 */

/** The signature and the declarations. */
const signature = `forms_link_contact(p_organisation text, p_key text, p_submission uuid) RETURNS contacts
    LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
    DECLARE
      v_found boolean := false;
      v_previous uuid;
      v_contact uuid;
      v_row contacts;
    BEGIN
      IF p_submission IS NOT NULL THEN
        SELECT s.contact_id INTO v_previous FROM submissions s WHERE s.id = p_submission FOR UPDATE;
        v_found := FOUND;
      END IF;
`

/** The contact found or created, both contacts locked in id order, the submission relinked, the tags recomputed. */
const upsertAndRelink = `      INSERT INTO contacts (organisation_id, key) VALUES (p_organisation, p_key)
        ON CONFLICT (organisation_id, key) DO NOTHING;
      SELECT c.id INTO v_contact FROM contacts c WHERE c.organisation_id = p_organisation AND c.key = p_key;
      IF v_contact IS NULL THEN
        RAISE EXCEPTION 'the contact upsert left no row';
      END IF;
      PERFORM 1 FROM contacts c WHERE c.id IN (v_contact, v_previous) ORDER BY c.id FOR UPDATE;
      IF v_found AND v_previous IS DISTINCT FROM v_contact THEN
        UPDATE submissions s SET contact_id = v_contact WHERE s.id = p_submission;
        IF v_previous IS NOT NULL THEN
          UPDATE contacts c SET tags = forms_contact_tags(v_previous) WHERE c.id = v_previous;
        END IF;
      END IF;
      UPDATE contacts c SET tags = forms_contact_tags(v_contact) WHERE c.id = v_contact RETURNING c.* INTO v_row;
`

const answer = `      RETURN v_row;
    END
    $$`

/** Migration 0004: the first definition. */
export const linkContact0004 = `CREATE FUNCTION ${signature}` +
  `      -- DO NOTHING waits for a racing insert of the same key to commit; the next statement then reads its row.\n` +
  upsertAndRelink + answer

/** Migration 0011: a link of a submission that no longer exists leaves no contact made for it alone. */
export const linkContact0011 = `CREATE OR REPLACE FUNCTION ${signature}` + upsertAndRelink +
  `      IF p_submission IS NOT NULL AND NOT v_found THEN
        DELETE FROM contacts c WHERE c.id = v_contact AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.contact_id = c.id);
      END IF;
` + answer
