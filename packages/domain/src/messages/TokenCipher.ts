/**
 * Port: tokens kept for links in messages (a resume token), encrypted under the service's token key (TOKEN_KEY, or
 * one generated once and kept beside the data). The domain never sees the key; the adapter uses AES-256-GCM.
 */
import { Context, type Effect } from "effect"
import type { Unavailable } from "../shared/errors.js"

export class TokenCipher extends Context.Service<TokenCipher, {
  /** The token encrypted (a fresh nonce each time), as text to store. */
  readonly seal: (token: string) => Effect.Effect<string, Unavailable>
  /** The token back; undefined when the text was not sealed under this key (or was altered). */
  readonly open: (sealed: string) => Effect.Effect<string | undefined, Unavailable>
}>()("@forms/domain/TokenCipher") {}
