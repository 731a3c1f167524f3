import { InMemoryPortal } from "./InMemoryPortal.js"
import { portalConformance } from "./portalConformance.js"

portalConformance("in-memory portal ports", (fixture) => InMemoryPortal.layer(fixture))
