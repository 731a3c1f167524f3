/**
 * The `@forms/web` elements served at /embed.js. A production build carries them bundled beside its own
 * bundle (`dist/embed.js`, written by `pnpm build`); from sources (`pnpm start`, tests) they are bundled
 * once per process with esbuild at start, so no separate build step is needed.
 */
import { Effect, Layer } from "effect"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { makeWebAssets, WebAssets } from "@forms/adapters-http"
import { bundleWebSources } from "./bundleWeb.js"

let loading: Promise<string> | undefined

const loadEmbedScript = (): Promise<string> => {
  loading ??= (async () => {
    const built = fileURLToPath(new URL("./embed.js", import.meta.url))
    return existsSync(built) ? readFileSync(built, "utf8") : bundleWebSources()
  })()
  return loading
}

const loadWebAssetsLayer = Layer.effect(WebAssets, Effect.promise(loadEmbedScript).pipe(Effect.map(makeWebAssets)))

/** `ServerWebAssets.layer`. */
export const ServerWebAssets = { layer: loadWebAssetsLayer } as const
