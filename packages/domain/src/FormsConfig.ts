/** The configurable limits of CONTRACT §3 and §8 that the use cases apply. */
import { Context, Layer } from "effect"

export interface FormsConfigShape {
  readonly tokenGraceSeconds: number
  readonly submitLimitPerHour: number
  readonly portalLimitPerMinute: number
  /** Creates and saves together, per client per form schema. */
  readonly writeLimitPerHour: number
  /** Uploads per client per form schema. */
  readonly uploadLimitPerHour: number
  /** Bytes of stored uploads per client per form schema and sliding day (policy `upload_bytes`). */
  readonly uploadBytesPerDay: number
  /** The largest upload any file field may take (its `max_bytes` is capped by it). */
  readonly fileMaxBytes: number
  /** The bytes of all uploads of one submission together. */
  readonly fileMaxBytesPerSubmission: number
}

export const defaultFormsConfig: FormsConfigShape = {
  tokenGraceSeconds: 86_400,
  submitLimitPerHour: 10,
  portalLimitPerMinute: 30,
  writeLimitPerHour: 600,
  uploadLimitPerHour: 60,
  uploadBytesPerDay: 500 * 1024 * 1024,
  fileMaxBytes: 25 * 1024 * 1024,
  fileMaxBytesPerSubmission: 100 * 1024 * 1024
}

export class FormsConfig extends Context.Service<FormsConfig, FormsConfigShape>()("@forms/domain/FormsConfig") {
  static readonly layer = (config: Partial<FormsConfigShape> = {}) =>
    Layer.succeed(FormsConfig, FormsConfig.of({ ...defaultFormsConfig, ...config }))
}
