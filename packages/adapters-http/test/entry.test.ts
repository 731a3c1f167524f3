/**
 * The package's entry follows the API definition: every group of `Api` is exported as `<Name>Group` (the very
 * group the definition holds) with its `<Name>Handlers`, so the API report (README.md, checked by
 * examples/test/api.test.ts) names each feature's group as soon as the definition has it.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { describe, expect, it } from "vitest"
import * as entry from "../src/index.js"

const pascal = (identifier: string) => identifier.charAt(0).toUpperCase() + identifier.slice(1)

/** Each group of `api` that the entry does not export with its handlers, named. */
const entryProblems = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  exported: Readonly<Record<string, unknown>>
): Array<string> => {
  const problems: Array<string> = []
  HttpApi.reflect(api, {
    onGroup: ({ group }) => {
      const name = pascal(group.identifier)
      if (exported[`${name}Group`] !== group) problems.push(`${group.identifier}: no ${name}Group export of this group`)
      if (exported[`${name}Handlers`] === undefined) problems.push(`${group.identifier}: no ${name}Handlers export`)
    },
    onEndpoint: () => {}
  })
  return problems
}

describe("the package entry", () => {
  it("exports every group of the definition with its handlers", () => {
    expect(entryProblems(entry.Api, entry)).toEqual([])
  })

  it("names a group added to the definition but not to the entry", () => {
    const extended = entry.Api.add(HttpApiGroup.make("newFeature").add(HttpApiEndpoint.get("listThings", "/things")))
    expect(entryProblems(extended, entry)).toEqual([
      "newFeature: no NewFeatureGroup export of this group",
      "newFeature: no NewFeatureHandlers export"
    ])
  })
})
