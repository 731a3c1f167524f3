/** Every port in memory over one store, seeded from a fixture-shaped object: `InMemory.layer(seed)`. */
import { Layer } from "effect"
import type { Outbox } from "../events/Outbox.js"
import type { FileStorage } from "../files/FileStorage.js"
import type { FileUploads } from "../files/FileUploads.js"
import type { RateLimiter } from "../limits/RateLimiter.js"
import type { FormSchemas } from "../publicForms/FormSchemas.js"
import type { Submissions } from "../publicForms/Submissions.js"
import type { UniqueValues } from "../publicForms/UniqueValues.js"
import type { RegistrationData } from "../shifts/RegistrationData.js"
import type { ShiftPlaces } from "../shifts/ShiftPlaces.js"
import { conformanceSeed } from "./conformanceSeed.js"
import { InMemoryOutbox } from "./events/InMemoryOutbox.js"
import { InMemoryFileStorage } from "./files/InMemoryFileStorage.js"
import { InMemoryFileUploads } from "./files/InMemoryFileUploads.js"
import { InMemoryStore } from "./InMemoryStore.js"
import { InMemoryRateLimiter } from "./limits/InMemoryRateLimiter.js"
import { InMemoryFormSchemas } from "./publicForms/InMemoryFormSchemas.js"
import { InMemorySubmissions, InMemoryUniqueValues } from "./publicForms/InMemorySubmissions.js"
import type { ConformanceSeed } from "./Seed.js"
import { InMemoryRegistrationData } from "./shifts/InMemoryRegistrationData.js"
import { InMemoryShiftPlaces } from "./shifts/InMemoryShiftPlaces.js"

/** The services of every port the use cases need. */
export type Ports =
  | FormSchemas
  | Submissions
  | UniqueValues
  | RateLimiter
  | RegistrationData
  | Outbox
  | FileUploads
  | ShiftPlaces

export const InMemory = {
  /**
   * A fresh store per build: every port, an in-memory file storage, plus `InMemoryStore` to read and change the
   * state in tests.
   */
  layer: (seed: ConformanceSeed = conformanceSeed): Layer.Layer<Ports | FileStorage | InMemoryStore> =>
    Layer.mergeAll(
      InMemoryFormSchemas.layer,
      InMemorySubmissions.layer,
      InMemoryUniqueValues.layer,
      InMemoryRateLimiter.layer,
      InMemoryRegistrationData.layer,
      InMemoryOutbox.layer,
      InMemoryFileUploads.layer,
      InMemoryShiftPlaces.layer,
      InMemoryFileStorage.layer
    ).pipe(Layer.provideMerge(InMemoryStore.layer(seed)))
}
