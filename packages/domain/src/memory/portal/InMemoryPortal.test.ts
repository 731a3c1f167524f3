import { portalConformance } from "../../testing/portal/portalConformance.js"
import { InMemoryPortal } from "./InMemoryPortal.js"

portalConformance("in-memory portal ports", (fixture) => InMemoryPortal.layer(fixture))
