/** The draft as the element keeps it, and the localStorage that holds its idempotency key. */

export interface Draft {
  readonly id: string
  readonly status: string
  readonly values: Record<string, unknown>
}

export const draftOf = (data: unknown): Draft | undefined => {
  if (typeof data !== "object" || data === null) return undefined
  const d = data as Record<string, unknown>
  const values = typeof d["values"] === "object" && d["values"] !== null ? d["values"] as Record<string, unknown> : {}
  return typeof d["id"] === "string" ? { id: d["id"], status: String(d["status"]), values } : undefined
}

/** localStorage, or nothing where the browser refuses it. */
export const storage = {
  get: (name: string): string | null => {
    try {
      return localStorage.getItem(name)
    } catch {
      return null
    }
  },
  set: (name: string, value: string | null): void => {
    try {
      if (value === null) localStorage.removeItem(name)
      else localStorage.setItem(name, value)
    } catch {
      // Storage refused (private mode, sandbox): the draft lives for this page only.
    }
  }
}
