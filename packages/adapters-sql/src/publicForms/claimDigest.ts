/**
 * The key of a unique claim in `unique_claims`: the SHA-256 (lower-case hex) of the UTF-8 bytes of the
 * domain's normalised value, so that a value of any allowed length fits the primary key's index
 * (PostgreSQL refuses index rows over 2,704 bytes). `0006_unique_digest` computes the same digest in SQL
 * (`sha256(convert_to(key, 'UTF8'))`) for the claims it re-keys.
 */
import { createHash } from "node:crypto"
import type { UniqueClaim } from "@forms/domain"

export interface DigestedClaim {
  readonly slug: string
  /** 64 lower-case hex digits. */
  readonly digest: string
}

export const claimDigest = (normalized: string): string => createHash("sha256").update(normalized, "utf8").digest("hex")

/** A (slug, digest) pair as one string, for sets. */
export const claimId = (slug: string, digest: string): string => `${digest}:${slug}`

/** Each (slug, value) once, in a fixed order, so that racing transactions lock claims in the same order. */
export const digestClaims = (claims: ReadonlyArray<UniqueClaim>): ReadonlyArray<DigestedClaim> => {
  const seen = new Map<string, DigestedClaim>()
  for (const claim of claims) {
    const digest = claimDigest(claim.normalized)
    seen.set(claimId(claim.slug, digest), { slug: claim.slug, digest })
  }
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, claim]) => claim)
}
