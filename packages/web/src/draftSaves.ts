/**
 * The draft's requests (CONTRACT §3), without the page: the create (or its replay) under the key kept per token,
 * and the saves of the edited fields until none is left.
 */
import { type Answer, call, type FieldErrors, newKey } from "./api.js"
import { type Draft, draftOf, storage } from "./draft.js"

export type Failure = Exclude<Answer, { kind: "ok" }>

/** The create's answer: the draft (`replayed` when the key had one already), or why there is none. */
export type Created =
  | { readonly kind: "draft"; readonly draft: Draft; readonly replayed: boolean; readonly refused: FieldErrors }
  | { readonly kind: "failed"; readonly answer: Failure }
  | { readonly kind: "none" }

/**
 * Creates the draft under the key stored at `storageKey` (a new one stored first). The create carries only the
 * key: values go in the saves that follow, so a value the relaxed rules refuse never keeps the draft from
 * existing (its messages come from the save, beside the field).
 */
export const createDraft = async (
  api: string,
  storageKey: string,
  keepalive: boolean,
  prefill: Readonly<Record<string, unknown>> = {},
  query = ""
): Promise<Created> => {
  let key = storage.get(storageKey)
  if (key === null) {
    key = newKey()
    storage.set(storageKey, key)
  }
  // A new draft takes the page address's values (CONTRACT §18, prefill), checked like a save: those refused are
  // left out of a second create and answered with their messages.
  let values: Record<string, unknown> = { ...prefill }
  let refused: FieldErrors = {}
  for (let round = 0; round < 2; round++) {
    const body = Object.keys(values).length === 0 ? { idempotency_key: key } : { idempotency_key: key, values }
    const answer = await call(`${api}/submissions${query}`, { method: "POST", body, keepalive })
    if (answer.kind === "error" && answer.status === 422 && round === 0 && Object.keys(answer.fields).some((k) => k in values)) {
      refused = answer.fields
      values = Object.fromEntries(Object.entries(values).filter(([slug]) => !(slug in refused)))
      continue
    }
    if (answer.kind !== "ok") return { kind: "failed", answer }
    const draft = draftOf(answer.data)
    return draft === undefined ? { kind: "none" } : { kind: "draft", draft, replayed: answer.status === 200, refused }
  }
  return { kind: "none" }
}

/** What the saves did: every slug they sent, and the refused values' messages or the failure that stopped them. */
export type Saved =
  | { readonly kind: "saved"; readonly sent: ReadonlyArray<string>; readonly refused: FieldErrors }
  | { readonly kind: "failed"; readonly sent: ReadonlyArray<string>; readonly answer: Failure }

/**
 * Saves the values of the `changed` slugs (`pending` reads them) until none is left. A save with a value the
 * relaxed rules refuse writes nothing (CONTRACT §3): the refused fields are held back with their messages, and
 * the others saved without them. `changed` is emptied of what was saved; the refused, and those of a failed save,
 * are put back in it.
 */
export const saveChanges = async (
  url: string,
  changed: Set<string>,
  pending: () => Record<string, unknown>,
  keepalive: boolean
): Promise<Saved> => {
  let refused: FieldErrors = {}
  const sent: Array<string> = []
  while (changed.size > 0) {
    const values = pending()
    for (const slug of Object.keys(refused)) delete values[slug]
    changed.clear()
    if (Object.keys(values).length === 0) break
    sent.push(...Object.keys(values))
    const answer = await call(url, { method: "PUT", body: { values }, keepalive })
    if (answer.kind === "error" && answer.status === 422 && Object.keys(answer.fields).some((k) => k in values)) {
      refused = { ...refused, ...answer.fields }
      for (const slug of Object.keys(values)) changed.add(slug)
      continue
    }
    if (answer.kind !== "ok") {
      for (const slug of [...Object.keys(values), ...Object.keys(refused)]) changed.add(slug)
      return { kind: "failed", sent, answer }
    }
  }
  for (const slug of Object.keys(refused)) changed.add(slug)
  return { kind: "saved", sent, refused }
}
