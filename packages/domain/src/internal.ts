/**
 * `@forms/domain/internal`: what the adapters and the server of this repository share with the domain and nothing
 * else imports, by feature folder. Not covered by semver: any release may change or remove them. Embedders use the
 * root entry. A name joins this list only when another package of the repository imports it.
 */

// Shared
export { compareStrings } from "./shared/compareStrings.js"

// forms: the listed form and field types
export { fieldTypes, FieldType, formTypes, FormType } from "./forms/FormTypes.js"

// rules
export { unstorablePaths } from "./rules/bodyChecks.js"
export { requiredMessage } from "./rules/messages.js"

// limits
export { underLimit } from "./limits/Limited.js"

// shifts
export { withPlacesTaken } from "./shifts/placesTaken.js"
export { effectiveTimeZone, instantHours, type SlotClock, type SlotInstants, slotInstants } from "./shifts/slotInstants.js"
export { timeZoneName } from "./shifts/zonedTime.js"
export { remainingPlaces } from "./shifts/TimeSlot.js"

// portal
export { advanceDraftKey, ArtistAdvanceType } from "./portal/Engagement.js"
export { applySchedule, lockTransition, type SchedulePatch } from "./portal/SectionLock.js"

// events
export { dispatchBatch } from "./events/Dispatcher.js"
export { makeInProcessSignal } from "./events/InProcessSignal.js"
export { submissionSubmitted } from "./events/LifecycleEvents.js"

// organiser/forms: the field type of time slots
export { timeSlotsFieldType } from "./organiser/forms/checkDefinition.js"

// submissionsOut: the columns of a CSV export
export { fileColumns, slotColumns } from "./submissionsOut/exportFormat.js"

// operations: the counters (read by the standalone server's Prometheus endpoint)
export { countRefusal, registerCounters } from "./operations/counters.js"
