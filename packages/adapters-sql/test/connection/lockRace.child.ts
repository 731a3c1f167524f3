/**
 * One contender of `dataDirLock.test.ts`'s race: waits until the instant it is given (epoch ms, with a
 * fraction), takes the lock of the folder, says whether it got it, and holds it until its stdin ends (the
 * test ends it once both contenders have answered, so a slow one never finds the lock already released).
 */
// Run by node itself (types stripped), which imports a TypeScript file by its own name.
const { DataDirInUse, lockDataDir } = (await import(new URL("../../src/connection/DataDirLock.ts", import.meta.url).href)) as
  typeof import("../../src/connection/DataDirLock.js")

const [dir = "", at = "0"] = process.argv.slice(2)
const now = () => performance.timeOrigin + performance.now()
while (now() < Number(at)) {
  // spin: both contenders start within microseconds of each other
}
try {
  const lock = lockDataDir(dir)
  process.stdout.write("held\n")
  process.stdin.resume()
  process.stdin.on("end", () => lock.release())
} catch (error) {
  process.stdout.write(error instanceof DataDirInUse ? "in use\n" : `error ${String(error)}\n`)
}
