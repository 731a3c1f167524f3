import { InMemoryPortal } from "./InMemoryPortal.js"
import { portalConformance } from "../../testing/portal/portalConformance.js"

portalConformance("in-memory portal ports", (fixture) => InMemoryPortal.layer(fixture))
