/**
 * The body of an upload as the HTTP adapter hands it on: streamed, counted and hashed while it passes, never
 * held whole. The domain decides the limit; the adapter stops reading there.
 */
import type { Effect, Stream } from "effect"
import type { FileTooLarge, UploadAborted } from "./errors.js"

/** What was read once the stream ended. */
export interface Measured {
  readonly size: number
  /** Lower-case hex. */
  readonly sha256: string
  /** The type found from the content's signature; undefined when it has none. */
  readonly detected: string | undefined
}

export interface OpenedBody {
  /** Fails with `FileTooLarge` as soon as more than the limit arrived (the rest is never read). */
  readonly stream: Stream.Stream<Uint8Array, FileTooLarge | UploadAborted>
  /** After `stream` ended: its size, hash and signature. */
  readonly measured: Effect.Effect<Measured>
}

export interface UploadBody {
  /** `Content-Length`, when the client sent one. */
  readonly declaredBytes: number | undefined
  readonly open: (maxBytes: number) => OpenedBody
}
