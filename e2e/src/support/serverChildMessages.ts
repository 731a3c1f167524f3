/** The IPC messages between the tests and `serverChildMain.ts` (structured clone, one reply per request id). */
import type { LagReport } from "./timing.js"

export interface ChildStart {
  readonly type: "start"
  readonly env: Record<string, string>
  readonly databaseUrl: string | undefined
}

export type ChildRequest =
  | { readonly type: "query"; readonly id: number; readonly text: string; readonly params: ReadonlyArray<unknown> }
  | { readonly type: "lagStart"; readonly id: number }
  | { readonly type: "lagStop"; readonly id: number }
  | { readonly type: "prototype"; readonly id: number }
  | { readonly type: "close"; readonly id: number }

export interface PrototypeReport {
  /** Object.prototype's own property names, sorted. */
  readonly names: ReadonlyArray<string>
  /** `({}).polluted` is not undefined. */
  readonly polluted: boolean
  /** Object.prototype.toString of an array. */
  readonly arrayTag: string
}

export type ChildReply =
  | { readonly type: "started"; readonly origin: string }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "rows"; readonly id: number; readonly rows: ReadonlyArray<Record<string, unknown>> }
  | { readonly type: "lag"; readonly id: number; readonly report: LagReport }
  | ({ readonly type: "prototype"; readonly id: number } & PrototypeReport)
  | { readonly type: "done"; readonly id: number }
  | { readonly type: "error"; readonly id: number; readonly message: string }
