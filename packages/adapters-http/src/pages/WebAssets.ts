/**
 * The browser script served at `/embed.js` (the `@forms/web` elements, bundled by the server that wires
 * this adapter). The adapter only serves it; how it is built is the server's business.
 */
import { Context, Layer } from "effect"
import { createHash } from "node:crypto"
import { etagOf } from "../http/etag.js"

export interface WebAssetsShape {
  /** The classic script (loadable as a module too) defining `<forms-embed>` and `<forms-portal>`. */
  readonly embedScript: string
  /** Strong ETag of the script: a hash of its bytes. */
  readonly embedEtag: string
  /** A short hash of the script, for `/embed.js?v=…` in the pages (a new build is a new URL). */
  readonly embedVersion: string
}

export const makeWebAssets = (embedScript: string): WebAssetsShape => {
  const version = createHash("sha256").update(embedScript).digest("base64url").slice(0, 12)
  return { embedScript, embedEtag: etagOf(embedScript), embedVersion: version }
}

/** Without a bundle (an application that provides none) `/embed.js` is an empty script. */
export const WebAssets = Context.Reference<WebAssetsShape>("@forms/adapters-http/WebAssets", {
  defaultValue: () => makeWebAssets("")
})

const webAssetsOfScript = (embedScript: string) => Layer.succeed(WebAssets, makeWebAssets(embedScript))

/** `StaticWebAssets.layer`. */
export const StaticWebAssets = { layer: webAssetsOfScript } as const
