/**
 * The served /openapi.json (CONTRACT §17): what it carries, Redocly's recommended rules, and a client generated
 * from it by openapi-typescript that compiles a flow and runs it with openapi-fetch against this server.
 */
import { assert, describe, layer } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import addFormatsImport from "ajv-formats"
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
import { wireEnv, wireScript } from "./wireScript.js"
import type { Exchange } from "./wireSupport.js"

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

// ajv-formats is CommonJS: its default import is the plugin itself at run time.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020
const addFormats = (addFormatsImport as unknown as { default?: FormatsPlugin }).default ??
  (addFormatsImport as unknown as FormatsPlugin)

/** A JSON pointer into the document, as a fragment of its URI. */
const pointer = (...path: ReadonlyArray<string>): string =>
  "#/" + path.map((part) => encodeURIComponent(part.replaceAll("~", "~0").replaceAll("/", "~1"))).join("/")

/** `GET /admin/events/:eventId` → the document's path `/admin/events/{eventId}`, and the method of its operation. */
const operationOf = (route: string): { readonly method: string; readonly path: string } | undefined => {
  const match = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/.exec(route)
  if (match === null) return undefined
  return { method: (match[1] ?? "").toLowerCase(), path: (match[2] ?? "").replace(/:([A-Za-z]+)/g, "{$1}") }
}

/**
 * What the document does not describe in an answer: its operation, its status, its media type, or (a JSON body) a
 * member the status's schema refuses; one line per problem, naming the call. Calls of no route are skipped.
 */
const undescribed = (document: unknown, exchanges: ReadonlyArray<Exchange>): ReadonlyArray<string> => {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ ...(document as object), $id: "openapi" })
  const problems: Array<string> = []
  for (const [index, exchange] of exchanges.entries()) {
    const operation = operationOf(exchange.route)
    if (operation === undefined) continue
    const call = `call ${index + 1} (${exchange.route}${exchange.method === "HEAD" ? " as HEAD" : ""}: ${exchange.status})`
    const responses = at(document, "paths", operation.path, operation.method, "responses")
    if (responses === undefined) {
      problems.push(`${call}: no such operation`)
      continue
    }
    const status = String(exchange.status)
    const response = at(responses, status) ?? at(responses, "default")
    if (response === undefined) {
      problems.push(`${call}: status not declared`)
      continue
    }
    const hasBody = exchange.method !== "HEAD" && exchange.text !== ""
    const mediaType = (exchange.headers["content-type"] ?? "").split(";")[0]?.trim() ?? ""
    const content = at(response, "content") as Record<string, unknown> | undefined
    if (!hasBody) continue
    if (content === undefined || !(mediaType in content)) {
      problems.push(`${call}: media type ${mediaType} not declared (${Object.keys(content ?? {}).join(", ")})`)
      continue
    }
    if (mediaType !== "application/json") continue
    const key = pointer("paths", operation.path, operation.method, "responses", at(responses, status) === undefined ? "default" : status, "content", mediaType, "schema")
    const validate = ajv.getSchema(`openapi${key}`)
    if (validate === undefined) {
      problems.push(`${call}: no schema at ${key}`)
      continue
    }
    if (!validate(JSON.parse(exchange.text))) {
      for (const error of validate.errors ?? []) problems.push(`${call}: ${error.instancePath || "/"} ${error.message ?? ""} ${JSON.stringify(error.params)}`)
    }
  }
  return problems
}

/** Every schema of the document, with its JSON pointer. */
const schemasOf = (document: unknown): ReadonlyArray<readonly [string, unknown]> => {
  const out: Array<readonly [string, unknown]> = []
  const walk = (node: unknown, path: string) => {
    if (typeof node !== "object" || node === null) return
    if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${path}/${i}`))
    else for (const [key, value] of Object.entries(node)) walk(value, `${path}/${key}`)
    if (!Array.isArray(node) && ("type" in node || "anyOf" in node || "enum" in node)) out.push([path, node])
  }
  walk(document, "")
  return out
}

const operations = (document: unknown): ReadonlyArray<unknown> =>
  Object.values(at(document, "paths") as Record<string, Record<string, unknown>>).flatMap((item) => Object.values(item))

for (const backend of backends) {
  layer(testServer(backend, wireEnv), liveOptions)(`the OpenAPI document (${backend})`, (it) => {
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

      it.effect("numbers are JSON numbers with the server's rules: no \"Infinity\" or \"NaN\", capacities 1–1,000,000, positions ±10^9", () =>
        Effect.gen(function*() {
          const document = yield* served
          const nonFinite = schemasOf(document).filter(([, schema]) =>
            (at(schema, "enum") as ReadonlyArray<unknown> | undefined)?.some((v) => v === "Infinity" || v === "-Infinity" || v === "NaN"))
          assert.deepStrictEqual(nonFinite.map(([path]) => path), [])
          const schema = (name: string, ...path: ReadonlyArray<string>) => at(document, "components", "schemas", name, "properties", ...path)
          const capacity = { type: "integer", minimum: 1, maximum: 1_000_000 }
          for (const name of ["TimeSlot", "AdminTimeSlot", "AdminTimeSlotBody", "AdminTimeSlotPatch"]) {
            assert.deepStrictEqual(at(schema(name, "capacity"), "anyOf"), [capacity, { type: "null" }], name)
          }
          const whole = { type: "integer", minimum: -1e9, maximum: 1e9 }
          assert.deepStrictEqual(schema("AdminEventSection", "position"), whole)
          assert.deepStrictEqual(schema("AdminEventSectionBody", "position"), whole)
          assert.deepStrictEqual(schema("AdminEventSectionPatch", "position"), whole)
          assert.deepStrictEqual(schema("RegistrationSection", "position"), whole)
          assert.deepStrictEqual(schema("AdminAdvanceSectionBody", "position"), whole)
          assert.deepStrictEqual(schema("AdminAdvanceSection", "position"), whole)
          // A form's sections and fields may sit between two others: any number of that range.
          const formPosition = { type: "number", minimum: -1e9, maximum: 1e9 }
          assert.deepStrictEqual(schema("Field", "position"), formPosition)
          assert.deepStrictEqual(schema("FormSection", "position"), formPosition)
          assert.deepStrictEqual(schema("AdminFormDefinition", "fields", "items", "properties", "position"), formPosition)
          assert.deepStrictEqual(schema("TimeSlot", "duration_hours"), { type: "number", minimum: 0, maximum: 24 })
          assert.deepStrictEqual(schema("TimeSlot", "remaining", "anyOf", "0"), { type: "integer", minimum: 0, maximum: 1_000_000 })
        }))

      it.effect("lists the form types and field types a definition may name as enums", () =>
        Effect.gen(function*() {
          const document = yield* served
          const definition = at(document, "components", "schemas", "AdminFormDefinition", "properties")
          assert.deepStrictEqual(at(definition, "type"), { type: "string", enum: ["registration", "volunteer", "artist_advance"] })
          assert.deepStrictEqual(at(definition, "fields", "items", "properties", "type"), {
            type: "string",
            enum: ["text", "textarea", "email", "url", "numeric", "date", "boolean", "phone", "select", "radio", "checkbox",
              "checkboxes", "multi_select", "time_slots", "file", "hidden"]
          })
        }))

      it.effect("lists one tag per name (without case), and every operation's tag among them", () =>
        Effect.gen(function*() {
          const document = yield* served
          const names = (at(document, "tags") as ReadonlyArray<{ readonly name: string }>).map((tag) => tag.name)
          assert.strictEqual(new Set(names.map((name) => name.toLowerCase())).size, names.length, names.join(", "))
          const used = new Set(operations(document).flatMap((op) => at(op, "tags") as ReadonlyArray<string>))
          assert.deepStrictEqual([...used].filter((tag) => !names.includes(tag)), [])
        }))

      it.effect("declares what /openapi.json and the export answer: a JSON object; CSV or NDJSON", () =>
        Effect.gen(function*() {
          const document = yield* served
          const answer = (path: string) => at(document, "paths", path, "get", "responses", "200", "content")
          assert.deepStrictEqual(Object.keys(answer("/openapi.json") as object), ["application/json"])
          assert.strictEqual(at(answer("/openapi.json"), "application/json", "schema", "type"), "object")
          assert.deepStrictEqual(Object.keys(answer("/admin/forms/{formId}/export") as object), ["text/csv", "application/x-ndjson"])
          assert.strictEqual(at(document, "components", "securitySchemes", "bearer", "scheme"), "bearer")
        }))

      it.effect("describes every answer the server gives: each route's status, media type and JSON body (a call of every route)", () =>
        Effect.gen(function*() {
          const document = yield* served
          const exchanges = yield* wireScript
          assert.isAbove(exchanges.length, 80)
          assert.deepStrictEqual(undescribed(document, exchanges), [])
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
            portalSection: { status: 200, values: { dietary: "vegan", guests: 2 } },
            document: { status: 200, openapi: "3.1.0" }
          })
        }))
    })
  })
}

reportSkippedPostgres("the OpenAPI document")
