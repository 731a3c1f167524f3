/** Registration sections of a form's event tree (CONTRACT §3): filter, dedupe by name, sort. */
import { compareStrings } from "../shared/compareStrings.js"
import type { EventSectionRecord } from "../shifts/RegistrationData.js"
import type { RegistrationSection } from "./RegistrationSection.js"

const isRegistrationSection = (section: EventSectionRecord): boolean =>
  section.show_in_registration && section.type === "standard"

/** Which of two sections of one name is listed: the lower position, then the lower id. */
const isPreferred = (candidate: EventSectionRecord, kept: EventSectionRecord): boolean =>
  candidate.position < kept.position ||
  (candidate.position === kept.position && compareStrings(candidate.id, kept.id) < 0)

/**
 * Filtered first (`show_in_registration` and type `standard`), then one per case-sensitive name (lowest
 * position, then lowest id), sorted by position then name.
 */
export const registrationSections = (
  sections: ReadonlyArray<EventSectionRecord>
): ReadonlyArray<RegistrationSection> => {
  const byName = new Map<string, EventSectionRecord>()
  for (const section of sections) {
    if (!isRegistrationSection(section)) continue
    const kept = byName.get(section.name)
    if (kept === undefined || isPreferred(section, kept)) byName.set(section.name, section)
  }
  return [...byName.values()]
    .map((section): RegistrationSection => ({
      id: section.id,
      name: section.name,
      type: section.type,
      position: section.position
    }))
    .sort((a, b) => a.position - b.position || compareStrings(a.name, b.name) || compareStrings(a.id, b.id))
}
