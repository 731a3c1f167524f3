/**
 * A client's flow written against the types openapi-typescript generates from the served /openapi.json
 * (`schema.d.ts`, written by openApiDocument.test.ts, which type-checks this file before running it).
 */
import createClient from "openapi-fetch"
import type { paths } from "./schema.js"

export interface FlowResult {
  readonly created: { readonly status: number; readonly values: unknown }
  readonly saved: { readonly status: number; readonly autoSaves: number | undefined }
  readonly savedWithoutBody: { readonly status: number; readonly autoSaves: number | undefined }
  readonly submitted: { readonly status: number; readonly state: string | undefined; readonly values: unknown }
  readonly form: { readonly status: number; readonly name: string | undefined }
  readonly slots: ReadonlyArray<{ readonly id: string; readonly capacity: number | null; readonly remaining: number | null }>
  readonly portalSection: { readonly status: number; readonly values: unknown }
  readonly document: { readonly status: number; readonly openapi: string | undefined }
}

export const runFlow = async (baseUrl: string, token: string, portalToken: string): Promise<FlowResult> => {
  const client = createClient<paths>({ baseUrl })
  // Any JSON value in a values map; slugs that are not fields of the form are dropped by the server.
  const created = await client.POST("/public/forms/{token}/submissions", {
    params: { path: { token } },
    body: { idempotency_key: crypto.randomUUID(), values: { email: "a@b.nl", age: 30, shifts: ["x"] } }
  })
  if (created.data === undefined) throw new Error(`create answered ${created.response.status}`)
  const submissionId = created.data.data.id
  const path = { token, submissionId }
  // Bodies are open: a key the server does not know is ignored.
  const saved = await client.PUT("/public/forms/{token}/submissions/{submissionId}", {
    params: { path },
    body: { values: { shirt: "M" }, client_version: "1.2.3" }
  })
  // Bodies are optional: no body saves nothing, and submits the saved values.
  const savedWithoutBody = await client.PUT("/public/forms/{token}/submissions/{submissionId}", { params: { path } })
  const submitted = await client.POST("/public/forms/{token}/submissions/{submissionId}/submit", { params: { path } })
  const form = await client.GET("/public/forms/{token}", { params: { path: { token } } })
  // The time slots with their places (CONTRACT §15), typed: capacity and remaining are numbers or null.
  const slots = await client.GET("/public/forms/{token}/time-slots", { params: { path: { token } } })
  const portalSection = await client.POST("/p/artist/{token}/sections/{sectionId}", {
    params: { path: { token: portalToken, sectionId: "as-hosp" } },
    body: { values: { dietary: "vegan", guests: 2 } }
  })
  // The document itself is a JSON object, typed as one: its `openapi` member is a string.
  const document = await client.GET("/openapi.json")
  return {
    created: { status: created.response.status, values: created.data.data.values },
    saved: { status: saved.response.status, autoSaves: saved.data?.data.auto_save_count },
    savedWithoutBody: { status: savedWithoutBody.response.status, autoSaves: savedWithoutBody.data?.data.auto_save_count },
    submitted: {
      status: submitted.response.status,
      state: submitted.data?.data.status,
      values: submitted.data?.data.values
    },
    form: { status: form.response.status, name: form.data?.data.name },
    slots: (slots.data?.data ?? []).map((slot) => ({ id: slot.id, capacity: slot.capacity, remaining: slot.remaining })),
    portalSection: { status: portalSection.response.status, values: portalSection.data?.data.values },
    document: { status: document.response.status, openapi: document.data?.openapi }
  }
}
