/** The built-in handlers: tag sync and identity match of `submission.submitted`, value applying of `section.submitted`. */
import { Effect, type Layer } from "effect"
import type { Engagements } from "../portal/Engagements.js"
import type { ValueTargets } from "../portal/ValueTargets.js"
import type { Enrichment } from "./Enrichment.js"
import { EventHandlers } from "./EventHandlers.js"
import { makeIdentityMatch } from "./IdentityMatch.js"
import type { SchemaCatalog } from "./SchemaCatalog.js"
import { makeTagSync } from "./TagSync.js"
import { makeValueApplying } from "./ValueApplying.js"

export const makeBuiltinHandlers = Effect.all([makeTagSync, makeIdentityMatch, makeValueApplying])

/** Registers the built-in handlers (in this order) into the EventHandlers registry it is given. */
const builtinHandlersLayer: Layer.Layer<
  never,
  never,
  EventHandlers | SchemaCatalog | Enrichment | Engagements | ValueTargets
> = EventHandlers.register(makeBuiltinHandlers)

/** The layer of `BuiltinHandlers`: `BuiltinHandlers.layer`. */
export const BuiltinHandlers = { layer: builtinHandlersLayer } as const
