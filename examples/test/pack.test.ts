/**
 * The libraries as a stranger installs them: build and pack each, install the tarballs with npm into a fresh
 * project outside the workspace, type-check the programs of docs/library.md there (TypeScript, strict, NodeNext) and run
 * them; `@arethetypeswrong/cli` (esm-only profile) and publint must find nothing in any tarball.
 */
import { execFile } from "node:child_process"
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { libraries, root } from "../scripts/libraries.js"

const run = promisify(execFile)
const examples = join(root, "examples")
/** What each library's manifest says about side effects: only @forms/web's embed script has any (it defines elements). */
const sideEffects = (dir: string) => (dir === "web" ? ["./dist/embed.js", "./src/embed.ts"] : false)
const bin = (name: string) => join(examples, "node_modules", ".bin", name)

const sh = async (command: string, args: ReadonlyArray<string>, cwd: string) => {
  try {
    const { stdout } = await run(command, [...args], { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: "0" } })
    return stdout
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
    throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed:\n${stdout}\n${stderr}`)
  }
}

const manifest = async (dir: string) =>
  JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
    name: string
    dependencies?: Record<string, string>
    devDependencies?: Record<string, string>
  }

let work = ""
const tarballs: Record<string, string> = {}
const folders: Record<string, string> = {}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "forms-pack-"))
  const names = await Promise.all(libraries.map(async (dir) => (await manifest(join(root, "packages", dir))).name))
  await sh("pnpm", [...names.flatMap((name) => ["--filter", name]), "build"], root)
  for (const [i, dir] of libraries.entries()) {
    const out = await sh("pnpm", ["pack", "--pack-destination", join(work, "tarballs")], join(root, "packages", dir))
    const tarball = out.trim().split("\n").at(-1)
    if (tarball === undefined || !tarball.endsWith(".tgz")) throw new Error(`pnpm pack printed no tarball: ${out}`)
    tarballs[names[i] ?? dir] = tarball
    folders[tarball] = dir
  }
})

afterAll(() => rm(work, { recursive: true, force: true }))

describe("the packed libraries", () => {
  it("are every library, packed", () => {
    expect(Object.keys(tarballs).sort()).toEqual(["@forms/adapters-http", "@forms/adapters-sql", "@forms/domain", "@forms/web"])
  })

  it("leave the workspace-only @forms/source condition and workspace: ranges out of their manifests", async () => {
    const license = await readFile(join(root, "LICENSE"), "utf8")
    for (const tarball of Object.values(tarballs)) {
      const dir = folders[tarball] ?? ""
      const packed = JSON.parse(await sh("tar", ["-xzOf", tarball, "package/package.json"], work)) as Record<string, unknown>
      expect(JSON.stringify(packed.exports)).not.toContain("@forms/source")
      expect(JSON.stringify([packed.dependencies, packed.peerDependencies])).not.toContain("workspace:")
      expect(packed).toMatchObject({ license: "MIT", sideEffects: sideEffects(dir), type: "module", engines: { node: ">=22.19.0" } })
      expect(packed).toMatchObject({ repository: { directory: `packages/${dir}` } })
      expect(packed).not.toHaveProperty("private")
      // MIT: the copyright and permission notice travel with every copy.
      expect(await sh("tar", ["-xzOf", tarball, "package/LICENSE"], work)).toBe(license)
    }
  })

  it("have no problem that @arethetypeswrong/cli (esm-only) or publint (strict) reports", async () => {
    await Promise.all(Object.values(tarballs).map(async (tarball) => {
      await sh(bin("attw"), [tarball, "--profile", "esm-only", "--format", "ascii"], work) // exits 1 on a problem
      const report = await sh(bin("publint"), ["run", tarball, "--strict", "--level", "suggestion"], work)
      expect(report).toContain("All good!")
    }))
  })

  it("install with npm outside the workspace; the programs of docs/library.md type-check and run there", async () => {
    const app = join(work, "app")
    await mkdir(join(app, "src"), { recursive: true })
    const domain = await manifest(join(root, "packages", "domain"))
    const own = await manifest(examples)
    const dependencies = Object.fromEntries(Object.entries(tarballs).map(([name, file]) => [name, `file:${file}`]))
    await writeFile(join(app, "package.json"), JSON.stringify({
      name: "forms-embedder",
      private: true,
      type: "module",
      dependencies: { ...dependencies, effect: domain.dependencies?.effect },
      devDependencies: { typescript: own.devDependencies?.typescript, "@types/node": own.devDependencies?.["@types/node"] }
    }))
    await writeFile(join(app, "tsconfig.json"), JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        types: ["node"],
        // What docs/library.md tells a consumer: effect 4.1's own declarations (effect/crypto) need lib DOM, and
        // PGlite's need @types/emscripten, which PGlite does not depend on.
        skipLibCheck: true,
        rootDir: "src",
        outDir: "dist"
      },
      include: ["src"]
    }))
    const programs = (await readdir(join(examples, "src"))).filter((file) => file.endsWith(".ts"))
    for (const file of programs) await copyFile(join(examples, "src", file), join(app, "src", file))

    await sh("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], app)
    // @effect/vitest is an optional peer of @forms/domain (for ./testing only): npm leaves it out, so the programs
    // below prove that the root and ./memory run without any test framework.
    for (const framework of ["@effect/vitest", "vitest"]) {
      await expect(readFile(join(app, "node_modules", framework, "package.json"))).rejects.toThrow()
    }
    // The embedder's tsc resolves every import through the packed manifests and declaration files.
    await sh(process.execPath, [join(app, "node_modules", "typescript", "bin", "tsc"), "-p", "."], app)

    const expected = { full_name: "Ada Lovelace", email: "ada@example.org" }
    const answers = await Promise.all(["publicFormsInMemory.js", "publicFormsPglite.js"].map(async (program) => {
      const [status, ...json] = (await sh(process.execPath, [join("dist", program)], app)).trim().split(" ")
      return { program, status, values: JSON.parse(json.join(" ")) as unknown }
    }))
    expect(answers).toEqual([
      { program: "publicFormsInMemory.js", status: "submitted", values: expected },
      { program: "publicFormsPglite.js", status: "submitted", values: expected }
    ])

    const organiser = {
      slots: ["Bar, Friday morning 08:00-12:00 (12)", "Gate, Friday morning 08:00-12:00 (no limit)"],
      advance: ["Travel: pending", "Technical rider: pending"],
      refused: "start_time"
    }
    for (const program of ["organiserInMemory.js", "organiserPglite.js"]) {
      expect({ program, printed: JSON.parse(await sh(process.execPath, [join("dist", program)], app)) as unknown })
        .toEqual({ program, printed: organiser })
    }

    // The browser program loads in Node (server rendering) without a DOM: it defines nothing and prints nothing;
    // its types (document.createElement("forms-embed") is a FormsEmbed) were checked by tsc above.
    expect(await sh(process.execPath, [join("dist", "browserElements.js")], app)).toBe("")
    const exported = (entry: string) =>
      sh(process.execPath, ["--input-type=module", "-e", `const m = await import(${JSON.stringify(entry)}); console.log(Object.keys(m).sort().join())`], app)
    expect(await exported("@forms/web")).toBe("FormsEmbed,FormsPortal,defineElements\n")
    expect(await exported("@forms/web/embed.js")).toBe("FormsEmbed,FormsPortal,defineElements\n")
    // The embed script is one self-contained file (what a page loads from a CDN or its own server): no import left.
    const script = await readFile(join(app, "node_modules", "@forms", "web", "dist", "embed.js"), "utf8")
    expect(script).not.toMatch(/\bimport\s*["'{(*]/)
  })
})
