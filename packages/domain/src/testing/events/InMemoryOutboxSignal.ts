/** The in-memory OutboxSignal: the domain's in-process signal (notify wakes the waiting dispatcher). */
import type { Layer } from "effect"
import { InProcessSignal } from "../../events/InProcessSignal.js"
import type { OutboxSignal } from "../../ports/OutboxSignal.js"

export const InMemoryOutboxSignalLayer: Layer.Layer<OutboxSignal> = InProcessSignal.layer
