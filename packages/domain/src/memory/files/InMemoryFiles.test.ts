import { fileStorageConformance } from "../../testing/files/fileStorageConformance.js"
import { InMemoryFileStorage } from "./InMemoryFileStorage.js"

// FileUploads is in the port conformance suite (InMemory.test.ts runs it on the in-memory ports).
fileStorageConformance("in memory", () => InMemoryFileStorage.layer)
