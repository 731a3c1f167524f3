/** The in-memory OutboxSignal: the domain's in-process signal (notify wakes the waiting dispatcher). */
import type { Layer } from "effect"
import { InProcessSignal } from "../../events/InProcessSignal.js"
import type { OutboxSignal } from "../../events/OutboxSignal.js"

const inMemoryOutboxSignalLayer: Layer.Layer<OutboxSignal> = InProcessSignal.layer

/** The layer of `InMemoryOutboxSignal`: `InMemoryOutboxSignal.layer`. */
export const InMemoryOutboxSignal = { layer: inMemoryOutboxSignalLayer } as const
