/**
 * An upload's body as the domain takes it: the request's stream, counted, hashed and sampled while it passes to
 * storage (never held whole), failing as soon as more than the limit arrived, so the rest is never read.
 */
import { createHash } from "node:crypto"
import { Effect, Stream } from "effect"
import type { HttpServerRequest } from "effect/http"
import { fileTypeFromBuffer } from "file-type"
import { FileTooLarge, type UploadBody, UploadAborted } from "@forms/domain"

/** What the signature is read from: enough for every format `file-type` knows within its usual sample. */
const sampleBytes = 64 * 1024

/** A Content-Length as sent: a decimal count of bytes, else none (a chunked body is counted as it streams). */
export const declaredBytesOf = (value: string | undefined): number | undefined =>
  value !== undefined && /^\s*\d{1,16}\s*$/.test(value) ? Number(value) : undefined

export const uploadBodyOf = (request: HttpServerRequest.HttpServerRequest): UploadBody => ({
  declaredBytes: declaredBytesOf(request.headers["content-length"]),
  open: (maxBytes) => {
    const hash = createHash("sha256")
    const sample = new Uint8Array(sampleBytes)
    let sampled = 0
    let size = 0
    const stream = request.stream.pipe(
      Stream.mapError(() => new UploadAborted({})),
      Stream.mapEffect((chunk) => {
        size += chunk.length
        if (size > maxBytes) return Effect.fail(new FileTooLarge({}))
        hash.update(chunk)
        if (sampled < sampleBytes) {
          const take = Math.min(sampleBytes - sampled, chunk.length)
          sample.set(chunk.subarray(0, take), sampled)
          sampled += take
        }
        return Effect.succeed(chunk)
      })
    )
    const measured = Effect.promise(async () => {
      const found = sampled === 0 ? undefined : await fileTypeFromBuffer(sample.subarray(0, sampled)).catch(() => undefined)
      return { size, sha256: hash.digest("hex"), detected: found?.mime }
    })
    return { stream, measured }
  }
})

/** The name in `X-File-Name`, percent-decoded UTF-8; null when it does not decode (then `invalid`). */
export const fileNameOf = (header: string | undefined): string | null | undefined => {
  if (header === undefined) return undefined
  try {
    return decodeURIComponent(header)
  } catch {
    return null
  }
}
