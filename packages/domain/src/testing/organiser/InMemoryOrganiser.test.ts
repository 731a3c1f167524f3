import { InMemoryOrganiser } from "./InMemoryOrganiser.js"
import { organiserConformance } from "./organiserConformance.js"

organiserConformance("in-memory organiser ports", () => InMemoryOrganiser.layer)
