import { formsConformance } from "../../../testing/organiser/forms/formsConformance.js"
import { InMemoryOrganiserForms } from "./InMemoryOrganiserForms.js"

formsConformance("in-memory OrganiserForms", () => InMemoryOrganiserForms.layer)
