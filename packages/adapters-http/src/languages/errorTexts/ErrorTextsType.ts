/** A language's messages of the error envelope: one per key of the error table. */
import type { ErrorKey } from "../../http/errorTable.js"

export type ErrorTexts = Readonly<Record<ErrorKey, string>>
