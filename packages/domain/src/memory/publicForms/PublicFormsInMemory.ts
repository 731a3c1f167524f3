/** The PublicForms use cases over the in-memory ports: for use-case tests and for HTTP tests without a database. */
import { Layer } from "effect"
import { FormsConfig, type FormsConfigShape } from "../../FormsConfig.js"
import { PublicFormsLive } from "../../publicForms/makePublicForms.js"
import type { PublicForms } from "../../publicForms/PublicForms.js"
import { conformanceSeed } from "../conformanceSeed.js"
import { InMemory, type Ports } from "../InMemory.js"
import type { InMemoryStore } from "../InMemoryStore.js"
import type { ConformanceSeed } from "../Seed.js"

export interface PublicFormsInMemoryOptions {
  readonly seed?: ConformanceSeed
  readonly config?: Partial<FormsConfigShape>
}

/** A fresh store per build; the ports, the store and the config stay visible to the test. */
const publicFormsInMemory = (
  options: PublicFormsInMemoryOptions = {}
): Layer.Layer<PublicForms | Ports | InMemoryStore | FormsConfig> =>
  PublicFormsLive.layer.pipe(
    Layer.provideMerge(Layer.mergeAll(InMemory.layer(options.seed ?? conformanceSeed), FormsConfig.layer(options.config)))
  )

/** The layer of the public-form use cases over in-memory ports: `PublicFormsInMemory.layer(options)`. */
export const PublicFormsInMemory = { layer: publicFormsInMemory } as const
