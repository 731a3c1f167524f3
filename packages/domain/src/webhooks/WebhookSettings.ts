/** The webhook settings of CONTRACT §11/§13: the retry schedule, the attempt timeout, the guard's policy. */
import { Context, Layer } from "effect"

export interface WebhookSettingsShape {
  /** Delays before each retry, in ms: 1 + n attempts for n delays. */
  readonly retryScheduleMs: ReadonlyArray<number>
  /** One attempt, in ms. */
  readonly timeoutMs: number
  /** `http` and loopback/private targets allowed (development, tests, on-premises). */
  readonly allowPrivateTargets: boolean
}

/** `5,300,1800,7200,18000,36000,36000` seconds; 10 s; private targets refused. */
export const defaultWebhookSettings: WebhookSettingsShape = {
  retryScheduleMs: [5, 300, 1800, 7200, 18000, 36000, 36000].map((s) => s * 1000),
  timeoutMs: 10_000,
  allowPrivateTargets: false
}

export class WebhookSettings extends Context.Service<WebhookSettings, WebhookSettingsShape>()(
  "@forms/domain/WebhookSettings"
) {
  static readonly layer = (settings: Partial<WebhookSettingsShape> = {}): Layer.Layer<WebhookSettings> =>
    Layer.succeed(WebhookSettings, WebhookSettings.of({ ...defaultWebhookSettings, ...settings }))
}

/**
 * Parses WEBHOOK_RETRY_SCHEDULE: seconds, comma-separated, each a whole number (0 allowed); empty means
 * no retry. Answers the delays in ms, or a problem.
 */
export const parseRetrySchedule = (text: string): ReadonlyArray<number> | string => {
  const trimmed = text.trim()
  if (trimmed === "") return []
  const parts = trimmed.split(",").map((p) => p.trim())
  if (parts.length > 100) return "at most 100 delays"
  const out: Array<number> = []
  for (const part of parts) {
    if (!/^\d{1,7}$/.test(part)) return `"${part}" is not a whole number of seconds`
    out.push(Number(part) * 1000)
  }
  return out
}
