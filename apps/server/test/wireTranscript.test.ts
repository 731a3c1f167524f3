/**
 * The bytes every route answers, as one transcript: status, the response headers in the order they are
 * written, and the body's members in the order they are written (ids, instants, tokens and secrets
 * replaced by placeholders; everything else as sent). It is compared with `wireTranscript.json`, so a
 * change of a status, a header, a member's place or a value fails here, naming the call. Every endpoint of
 * the API definition must be called (a new route fails until the script calls it).
 * `WIRE_TRANSCRIPT=write` rewrites the file (then review its diff).
 */
import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { backends, reportSkippedPostgres } from "./backends.js"
import { liveOptions, testServer } from "./harness.js"
import { definedRoutes, wireEnv, wireScript } from "./wireScript.js"
import { transcriptOf } from "./wireSupport.js"

const file = fileURLToPath(new URL("./wireTranscript.json", import.meta.url))

for (const backend of backends) {
  layer(testServer(backend, wireEnv), liveOptions)(`the wire transcript (${backend})`, (it) => {
    it.effect("every route answers the statuses, headers and members of wireTranscript.json, in their order", () =>
      Effect.gen(function*() {
        const exchanges = yield* wireScript
        const called = new Set(exchanges.map((e) => e.route))
        const missing = definedRoutes().filter((route) => !called.has(route))
        assert.deepStrictEqual(missing, [], "routes of the definition the transcript does not call")
        const transcript = transcriptOf(exchanges)
        if (process.env["WIRE_TRANSCRIPT"] === "write" && backend === "embedded") {
          writeFileSync(file, `${JSON.stringify(transcript, null, 2)}\n`)
        }
        const expected = JSON.parse(readFileSync(file, "utf8")) as typeof transcript
        for (const [index, entry] of transcript.entries()) {
          assert.deepStrictEqual(entry, expected[index], `call ${index + 1}: ${entry.call}`)
        }
        assert.strictEqual(transcript.length, expected.length)
      }))
  })
}

reportSkippedPostgres("the wire transcript")
