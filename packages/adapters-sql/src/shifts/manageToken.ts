/** Manage tokens (CONTRACT §22): 32 random bytes in base64url, stored only as their SHA-256 (lower-case hex). */
import { createHash, randomBytes } from "node:crypto"

export const newManageToken = (): string => randomBytes(32).toString("base64url")

export const hashManageToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex")
