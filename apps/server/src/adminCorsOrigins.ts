/** ADMIN_CORS_ORIGINS (CONTRACT §14): comma-separated browser origins, each `scheme://host[:port]`. */

export interface ParsedOrigins {
  readonly origins: ReadonlyArray<string>
  readonly problems: ReadonlyArray<string>
}

export const parseAdminCorsOrigins = (raw: string): ParsedOrigins => {
  const origins: Array<string> = []
  const problems: Array<string> = []
  for (const entry of raw.split(",").map((s) => s.trim()).filter((s) => s !== "")) {
    let origin: string | undefined
    try {
      const url = new URL(entry)
      // An origin has no path, query or credentials: "https://app.example.org", not ".../admin".
      if ((url.protocol === "http:" || url.protocol === "https:") && url.origin === entry.replace(/\/$/, "").toLowerCase()) {
        origin = url.origin
      }
    } catch {
      origin = undefined
    }
    if (origin === undefined) problems.push(`${JSON.stringify(entry)} is not an origin such as https://app.example.org`)
    else origins.push(origin)
  }
  return { origins, problems }
}
