/**
 * The body schemas of the definition (what OpenAPI and the typed client say) and the server's own body checks
 * (`publicForms/requestBodies.ts`) accept and refuse the same bodies. The §8 size limits and unstorable text are
 * settings and storage rules the schemas describe in words; the bodies below stay within them.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Schema } from "effect"
import { defaultSizeLimits } from "@forms/domain"
import { decodeCreateBody, decodeValuesBody } from "../src/publicForms/requestBodies.js"
import type { JsonObject } from "../src/http/readJsonBody.js"
import { PortalValuesBody } from "../src/portal/wire.js"
import { CreateDraftBody, ValuesBody } from "../src/publicForms/wire.js"

const key16 = "k".repeat(16)

// A body as the server reads it (JSON.parse of the wire text; `undefined` is no body at all).
const body = (text: string | undefined): JsonObject | undefined => (text === undefined ? undefined : JSON.parse(text))

const valuesCases: ReadonlyArray<readonly [string | undefined, boolean]> = [
  [undefined, true],
  ["{}", true],
  [`{"values":{}}`, true],
  [`{"values":{"email":"a@b.nl","age":30,"shifts":["x"],"ok":true,"none":null,"nested":{"a":[1,{"b":2}]}}}`, true],
  [`{"values":{"__proto__":"x","constructor":1}}`, true],
  [`{"other":1,"values":{"a":1}}`, true],
  [`{"values":null}`, false],
  [`{"values":[]}`, false],
  [`{"values":["a"]}`, false],
  [`{"values":"a"}`, false],
  [`{"values":1}`, false],
  [`{"values":true}`, false]
]

const createCases: ReadonlyArray<readonly [string | undefined, boolean]> = [
  [undefined, false],
  ["{}", false],
  [`{"values":{}}`, false],
  [`{"idempotency_key":null}`, false],
  [`{"idempotency_key":""}`, false],
  [`{"idempotency_key":"${" ".repeat(20)}"}`, false],
  [`{"idempotency_key":123456789012345678}`, false],
  [`{"idempotency_key":["${key16}"]}`, false],
  [`{"idempotency_key":"${"k".repeat(15)}"}`, false],
  [`{"idempotency_key":"${key16}"}`, true],
  [`{"idempotency_key":"${"~".repeat(255)}"}`, true],
  [`{"idempotency_key":"${"!".repeat(256)}"}`, false],
  [`{"idempotency_key":"0192f1c4-aaaa-bbbb-cccc-000000000001"}`, true],
  [`{"idempotency_key":"key with spaces 0123"}`, false],
  [`{"idempotency_key":"tab\\tinside-0123456789"}`, false],
  [`{"idempotency_key":"caf\u00e9-0123456789abcdef"}`, false],
  [`{"idempotency_key":"emoji-\ud83d\ude00-0123456789"}`, false],
  ...valuesCases.flatMap(([text, accepted]): ReadonlyArray<readonly [string, boolean]> => {
    const fields = text === undefined ? {} : JSON.parse(text)
    return [[JSON.stringify({ ...fields, idempotency_key: key16 }), accepted]]
  })
]

// The schemas describe a body that is present; the documents say an absent body means `{}`.
const schemaAccepts = (schema: Schema.Decoder<unknown>, text: string | undefined): boolean =>
  Exit.isSuccess(Schema.decodeUnknownExit(schema)(body(text) ?? {}))

const serverAccepts = (decode: typeof decodeValuesBody, text: string | undefined): boolean =>
  Exit.isSuccess(Effect.runSyncExit(decode(body(text), defaultSizeLimits)))

describe("body schemas and the server's body checks agree", () => {
  for (const [text, accepted] of createCases) {
    it(`create ${text ?? "(no body)"} → ${accepted ? "accepted" : "refused"}`, () => {
      assert.strictEqual(serverAccepts(decodeCreateBody, text), accepted, "server")
      assert.strictEqual(schemaAccepts(CreateDraftBody, text), accepted, "CreateDraftBody")
    })
  }
  for (const [text, accepted] of valuesCases) {
    it(`save, submit and portal submit ${text ?? "(no body)"} → ${accepted ? "accepted" : "refused"}`, () => {
      assert.strictEqual(serverAccepts(decodeValuesBody, text), accepted, "server")
      assert.strictEqual(schemaAccepts(ValuesBody, text), accepted, "ValuesBody")
      assert.strictEqual(schemaAccepts(PortalValuesBody, text), accepted, "PortalValuesBody")
    })
  }
})
