import { assert, describe, it } from "@effect/vitest"
import { isJsonMediaType } from "../src/http/readJsonBody.js"
import { forwardedClient } from "../src/http/clientIp.js"
import { routeCatalogue } from "../src/HttpApp.js"
import { requestIdFor } from "../src/http/requestId.js"

describe("forwardedClient (TRUST_PROXY_HOPS)", () => {
  const cases: ReadonlyArray<[string | undefined, number, string | undefined]> = [
    ["1.1.1.1, 2.2.2.2, 3.3.3.3", 0, undefined],
    ["1.1.1.1, 2.2.2.2, 3.3.3.3", 1, "3.3.3.3"],
    ["1.1.1.1, 2.2.2.2, 3.3.3.3", 2, "2.2.2.2"],
    ["1.1.1.1, 2.2.2.2, 3.3.3.3", 5, "1.1.1.1"],
    ["::ffff:10.0.0.1", 1, "10.0.0.1"],
    [" , ", 1, undefined],
    [undefined, 1, undefined]
  ]
  for (const [header, hops, expected] of cases) {
    it(`${header} with ${hops} hops is ${expected}`, () => {
      assert.strictEqual(forwardedClient(header, hops)?.client, expected)
    })
  }
})

describe("isJsonMediaType", () => {
  const cases: ReadonlyArray<[string | undefined, boolean]> = [
    ["application/json", true],
    ["Application/JSON", true],
    ["application/json; charset=utf-8", true],
    ["application/json;charset=\"UTF-8\"", true],
    ["application/json; charset=latin1", false],
    ["application/jsonx", false],
    ["text/json", false],
    ["application/x-www-form-urlencoded", false],
    [undefined, false]
  ]
  for (const [value, expected] of cases) {
    it(`${value} → ${expected}`, () => assert.strictEqual(isJsonMediaType(value), expected))
  }
})

describe("requestIdFor", () => {
  it("echoes 1–128 characters of [A-Za-z0-9._:-] and replaces anything else", () => {
    assert.strictEqual(requestIdFor("a"), "a")
    assert.strictEqual(requestIdFor("x".repeat(128)), "x".repeat(128))
    for (const bad of [undefined, "", "x".repeat(129), "a b", "é", "a/b"]) {
      assert.match(requestIdFor(bad), /^[0-9a-f-]{36}$/)
    }
  })
})

describe("routeCatalogue", () => {
  it("names route templates, tells 405 from 404, and never matches across segments", () => {
    assert.deepStrictEqual(routeCatalogue.match("GET", "/public/forms/abc?x=1"), {
      _tag: "Found",
      template: "/public/forms/:token"
    })
    assert.deepStrictEqual(routeCatalogue.match("POST", "/public/forms/t/submissions/s/submit"), {
      _tag: "Found",
      template: "/public/forms/:token/submissions/:submissionId/submit"
    })
    assert.deepStrictEqual(routeCatalogue.match("HEAD", "/openapi.json"), { _tag: "Found", template: "/openapi.json" })
    assert.strictEqual(routeCatalogue.match("POST", "/health/live")._tag, "MethodNotAllowed")
    assert.strictEqual(routeCatalogue.match("GET", "/public/forms/a/b")._tag, "NotFound")
    assert.strictEqual(routeCatalogue.match("GET", "/public/forms//sections")._tag, "NotFound")
  })
})
