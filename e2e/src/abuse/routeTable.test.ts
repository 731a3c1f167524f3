/**
 * The abuse suite's route table against the API definition (no server): every route the definition has is
 * fuzzed, and a route added without a fuzzing entry fails, named.
 */
import { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { describe, expect, it } from "vitest"
import { Api } from "@forms/adapters-http"
import { definedRoutes, routeTable, routeTableProblems, routes } from "./routes.js"

const placeholder = { drafts: ["x"], submitted: ["x"], otherSchema: ["x"] }

describe("the abuse route table", () => {
  it("has a fuzzing entry for every route of the definition, and for nothing else", () => {
    expect(routeTableProblems(routeTable(placeholder), definedRoutes(Api))).toEqual([])
    expect(routes(placeholder).length).toBe(definedRoutes(Api).length + 1)
  })

  it("names a route added to the definition without a fuzzing entry", () => {
    const extended = Api.add(HttpApiGroup.make("newFeature").add(HttpApiEndpoint.post("createThing", "/things/:thingId")))
    expect(routeTableProblems(routeTable(placeholder), definedRoutes(extended))).toEqual([
      "POST /things/:thingId: no fuzzing entry"
    ])
  })
})
