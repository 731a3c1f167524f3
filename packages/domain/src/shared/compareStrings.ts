/** Plain UTF-16 code-unit order (CONTRACT §2): no locale collation anywhere the contract sorts. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
