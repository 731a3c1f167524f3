/** The `x-request-id` of every answer: a valid client one is echoed, any other is replaced. */
import { randomUUID } from "node:crypto"

const valid = /^[A-Za-z0-9._:-]{1,128}$/

export const requestIdFor = (sent: string | undefined): string =>
  sent !== undefined && valid.test(sent) ? sent : randomUUID()
