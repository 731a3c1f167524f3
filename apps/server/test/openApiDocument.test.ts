/**
 * The served /openapi.json (CONTRACT §17): what it carries, Redocly's recommended rules, and a client generated
 * from it by openapi-typescript that compiles a flow and runs it with openapi-fetch against this server.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript"
import ts from "typescript"
import { backends, reportSkippedPostgres } from "./backends.js"
import { baseUrl, call, liveOptions, testServer } from "./harness.js"

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const redocly = here("../node_modules/.bin/redocly")
const redoclyConfig = here("../../../redocly.yaml")
const clientDir = here("./openApiClient/")

/** `openApiClient/flow.ts`, imported by path: it is compiled against the generated types, not with this package. */
interface FlowModule {
  readonly runFlow: (baseUrl: string, token: string, portalToken: string) => Promise<unknown>
}
const importFlow = (): Promise<FlowModule> => import(join(clientDir, "flow.ts"))

const served = Effect.map(call("/openapi.json"), (res): unknown => JSON.parse(res.text))

/** The member of a JSON document at `path` (undefined where there is none). */
const at = (value: unknown, ...path: ReadonlyArray<string>): unknown =>
  path.reduce<unknown>((node, key) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined), value)

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number }
  readonly problems: ReadonlyArray<{ readonly ruleId: string; readonly severity: string; readonly message: string }>
}

/** `redocly lint` on the document, offline: no telemetry, no update check (the config says so too). */
const lint = (document: unknown) =>
  Effect.promise(async (): Promise<LintReport> => {
    const dir = await mkdtemp(join(tmpdir(), "openapi-lint-"))
    try {
      const file = join(dir, "openapi.json")
      await writeFile(file, JSON.stringify(document))
      const stdout = await new Promise<string>((resolve) => {
        execFile(
          redocly,
          ["lint", "--config", redoclyConfig, "--format", "json", file],
          { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", CI: "true" } },
          // Problems make the exit code non-zero: the report on stdout is what counts.
          (_error, out) => resolve(out)
        )
      })
      return JSON.parse(stdout) as LintReport
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

/** The flow's type errors against the generated client, with the project's compiler options. */
const typeErrors = (): ReadonlyArray<string> => {
  const config = ts.getParsedCommandLineOfConfigFile(here("../tsconfig.json"), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
    }
  })
  if (config === undefined) throw new Error("apps/server/tsconfig.json not read")
  const program = ts.createProgram([join(clientDir, "flow.ts")], { ...config.options, noEmit: true })
  return ts.getPreEmitDiagnostics(program).map((diagnostic) =>
    `${diagnostic.file?.fileName ?? ""}:${
      diagnostic.file === undefined || diagnostic.start === undefined
        ? ""
        : diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
    } ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`
  )
}

const operations = (document: unknown): ReadonlyArray<unknown> =>
  Object.values(at(document, "paths") as Record<string, Record<string, unknown>>).flatMap((item) => Object.values(item))

for (const backend of backends) {
  layer(testServer(backend), liveOptions)(`the OpenAPI document (${backend})`, (it) => {
    describe("/openapi.json", () => {
      it.effect("carries the licence, the server's base URL, a summary and an id on every operation; `security: []` on public ones, the bearer scheme on organiser ones", () =>
        Effect.gen(function*() {
          const document = yield* served
          const base = yield* baseUrl
          assert.deepStrictEqual(at(document, "info", "license"), { name: "MIT", identifier: "MIT" })
          assert.deepStrictEqual(at(document, "servers"), [{ url: base }])
          const paths = at(document, "paths") as Record<string, Record<string, unknown>>
          let organiser = 0
          for (const [path, item] of Object.entries(paths)) {
            for (const op of Object.values(item)) {
              const id = String(at(op, "operationId"))
              assert.isString(at(op, "operationId"))
              assert.isString(at(op, "summary"), id)
              const isOrganiser = path.startsWith("/admin")
              if (isOrganiser) organiser++
              assert.deepStrictEqual(at(op, "security"), isOrganiser ? [{ bearer: [] }] : [], id)
            }
          }
          assert.isAbove(organiser, 20)
          assert.isAbove(operations(document).length - organiser, 13)
        }))

      it.effect("is self-contained: no text in it points to a document outside it", () =>
        Effect.gen(function*() {
          const text = JSON.stringify(yield* served)
          assert.notMatch(text, /CONTRACT|§|\.\.\/shared/)
        }))

      it.effect("describes values maps as open maps of any JSON value, and bodies as optional and open", () =>
        Effect.gen(function*() {
          const document = yield* served
          const schema = (name: string) => at(document, "components", "schemas", name)
          const anyJson = { description: "Any JSON value." }
          for (const name of ["CreateDraftBody", "ValuesBody", "PortalValuesBody"]) {
            assert.notStrictEqual(at(schema(name), "additionalProperties"), false, name)
            assert.deepStrictEqual(at(schema(name), "properties", "values", "additionalProperties"), anyJson, name)
          }
          for (const name of ["Submission", "PortalSection"]) {
            assert.deepStrictEqual(at(schema(name), "properties", "values", "additionalProperties"), anyJson, name)
          }
          assert.strictEqual(at(schema("CreateDraftBody"), "properties", "idempotency_key", "pattern"), "^[\\x21-\\x7E]{16,255}$")
          const required = (path: string, method: string) => at(document, "paths", path, method, "requestBody", "required")
          const bodies = {
            create: required("/public/forms/{token}/submissions", "post"),
            save: required("/public/forms/{token}/submissions/{submissionId}", "put"),
            submit: required("/public/forms/{token}/submissions/{submissionId}/submit", "post"),
            portal: required("/p/artist/{token}/sections/{sectionId}", "post")
          }
          // Create without a body is refused (idempotency_key is required), the others accept none.
          assert.deepStrictEqual(bodies, { create: true, save: false, submit: false, portal: false })
        }))

      it.effect("passes Redocly's recommended rules with no error", () =>
        Effect.gen(function*() {
          const report = yield* lint(yield* served)
          const errors = report.problems.filter((problem) => problem.severity === "error")
          assert.deepStrictEqual(errors.map((problem) => `${problem.ruleId}: ${problem.message}`), [])
          assert.strictEqual(report.totals.errors, 0)
        }))

      it.effect("a client generated by openapi-typescript compiles a flow and runs it with openapi-fetch", () =>
        Effect.gen(function*() {
          const document = yield* served
          const source = astToString(yield* Effect.promise(() => openapiTS(document as OpenAPI3)))
          yield* Effect.promise(() => writeFile(join(clientDir, "schema.d.ts"), source))
          assert.deepStrictEqual(typeErrors(), [])
          const { runFlow } = yield* Effect.promise(importFlow)
          const base = yield* baseUrl
          const result = yield* Effect.promise(() => runFlow(base, "test-open-token-0001", "test-portal-token-0001"))
          assert.deepStrictEqual(result, {
            created: { status: 201, values: { email: "a@b.nl" } },
            saved: { status: 200, autoSaves: 1 },
            savedWithoutBody: { status: 200, autoSaves: 2 },
            submitted: { status: 200, state: "submitted", values: { email: "a@b.nl", shirt: "M" } },
            form: { status: 200, name: "Open form" },
            slots: [{ id: "ts-1", capacity: null, remaining: null }],
            portalSection: { status: 200, values: { dietary: "vegan", guests: 2 } }
          })
        }))
    })
  })
}

reportSkippedPostgres("the OpenAPI document")
