/** The settings of the HTTP adapter: body limit, proxy trust, exempt networks, the size limits of a body's values and the public base URL. */
import { Context, Layer } from "effect"
import { defaultSizeLimits, type SizeLimits } from "@forms/domain"
import { type ExemptNetworks, noExemptNetworks } from "./http/exemptNetworks.js"

export interface HttpConfigShape {
  /** Largest request body in bytes (MAX_BODY_BYTES). */
  readonly maxBodyBytes: number
  /** How many X-Forwarded-For hops to trust (TRUST_PROXY_HOPS); 0 uses the socket's peer address. */
  readonly trustProxyHops: number
  readonly sizeLimits: SizeLimits
  /** Clients no client limit counts (RATE_LIMIT_EXEMPT_NETWORKS). */
  readonly exemptNetworks: ExemptNetworks
  /** Origins that may call organiser routes from a browser (ADMIN_CORS_ORIGINS). */
  readonly adminCorsOrigins: ReadonlyArray<string>
  /** Where clients reach the server (PUBLIC_BASE_URL), the `servers` of /openapi.json; unset: `/`, the document's origin. */
  readonly publicBaseUrl: string | undefined
}

export const defaultHttpConfig: HttpConfigShape = {
  maxBodyBytes: 262_144,
  trustProxyHops: 0,
  sizeLimits: defaultSizeLimits,
  exemptNetworks: noExemptNetworks,
  adminCorsOrigins: [],
  publicBaseUrl: undefined
}

export class HttpConfig extends Context.Service<HttpConfig, HttpConfigShape>()("@forms/adapters-http/HttpConfig") {
  static readonly layer = (config: Partial<HttpConfigShape> = {}) =>
    Layer.succeed(HttpConfig, HttpConfig.of({ ...defaultHttpConfig, ...config }))
}
