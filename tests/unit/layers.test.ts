import { execFile } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

/**
 * The layer rules of docs/architecture.md ("Layers") are checked by dependency-cruiser
 * (.dependency-cruiser.cjs, `npm run lint`). The product's own tree must pass, and a tree with one
 * violation of each rule planted in it must fail with that rule's name: a check that passes
 * everything is no check.
 */
const run = promisify(execFile)
const root = resolve(import.meta.dirname, "../..")
const depcruise = join(root, "node_modules/.bin/depcruise")
const config = join(root, ".dependency-cruiser.cjs")
const folders = ["contract", "machines", "server", "src", "tools"]

interface Violation {
  readonly rule: { readonly name: string }
  readonly from: string
  readonly to: string
}

const cruise = async (cwd: string): Promise<ReadonlyArray<Violation>> => {
  const present = folders.filter((folder) => existsSync(join(cwd, folder)))
  const { stdout } = await run(depcruise, [...present, "--config", config, "--output-type", "json"], { cwd, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? "{}" })
  )
  return (JSON.parse(stdout) as { summary?: { violations?: ReadonlyArray<Violation> } }).summary?.violations ?? []
}

const planted = mkdtempSync(join(tmpdir(), "layers-"))
afterAll(() => rmSync(planted, { recursive: true, force: true }))

const plant = (files: Readonly<Record<string, string>>) => {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(planted, path)), { recursive: true })
    writeFileSync(join(planted, path), text)
  }
}

describe("the layer rules", () => {
  it("hold for the product's own code", async () => {
    expect((await cruise(root)).map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`)).toEqual([])
  }, 120_000)

  it("fail on a planted violation of each rule, naming the rule", async () => {
    plant({
      "tsconfig.json": JSON.stringify({ compilerOptions: { allowImportingTsExtensions: true, noEmit: true, module: "preserve", moduleResolution: "bundler" } }),
      // Allowed imports, so the planted tree is not all violations.
      "contract/common.ts": "export const a = 1\n",
      "machines/m.ts": 'import { a } from "../contract/common.ts"\nexport const m = a\n',
      "src/lib/shared.ts": "export const shared = 1\n",
      // One violation of each rule.
      "contract/bad.ts": 'import { m } from "../machines/m.ts"\nexport const bad = m\n',
      "machines/bad.ts": 'import { shared } from "../src/lib/shared.ts"\nexport const bad = shared\n',
      "server/platform/p.ts": 'import { area } from "../auth/area.ts"\nexport const p = area\n',
      "server/auth/area.ts": "export const area = 1\n",
      "server/blog/http.ts": 'import { area } from "../auth/area.ts"\nexport const blog = area\n',
      "server/console.ts": 'import { shared } from "../src/lib/shared.ts"\nexport const c = shared\n',
      "src/api/call.ts": 'import { p } from "../../server/platform/p.ts"\nexport const call = p\n',
      "tools/plugin.ts": 'import { shared } from "../src/lib/shared.ts"\nexport const plugin = shared\n',
      "src/features/one/screen.ts": 'import { two } from "../two/screen.ts"\nimport { app } from "../../app/app.ts"\nexport const one = two + app\n',
      "src/features/two/screen.ts": "export const two = 2\n",
      "src/app/app.ts": "export const app = 1\n",
      "src/ui/field.ts": 'import { call } from "../api/call.ts"\nexport const field = call\n',
      "src/kinds/kind.ts": 'import { two } from "../features/two/screen.ts"\nexport const kind = two\n',
      "src/lib/loop-a.ts": 'import { b } from "./loop-b.ts"\nexport const a = () => b()\n',
      "src/lib/loop-b.ts": 'import { a } from "./loop-a.ts"\nexport const b = () => a\n'
    })
    const broken = new Set((await cruise(planted)).map((violation) => violation.rule.name))
    expect([...broken].sort()).toEqual([
      "console-not-server",
      "contract-only-effect",
      "features-apart",
      "features-not-app",
      "kinds-not-features",
      "machines-only-contract-and-xstate",
      "no-circular",
      "platform-not-areas",
      "server-areas-apart",
      "server-not-console",
      "shared-not-api-or-features",
      "tools-not-console"
    ])
  }, 120_000)

  it("keep the server's areas apart, but for the exceptions they declare", async () => {
    const areas = mkdtempSync(join(tmpdir(), "areas-"))
    const write = (files: Readonly<Record<string, string>>) => {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(areas, path)), { recursive: true })
        writeFileSync(join(areas, path), text)
      }
    }
    const uses = (...paths: ReadonlyArray<string>) =>
      `${paths.map((path, index) => `import { x as x${index} } from "${path}"`).join("\n")}\nexport const x = 1\n`
    try {
      write({
        "tsconfig.json": JSON.stringify({
          compilerOptions: { allowImportingTsExtensions: true, noEmit: true, module: "preserve", moduleResolution: "bundler" }
        }),
        "server/platform/lists.ts": "export const x = 1\n",
        "server/auth/roles.ts": "export const x = 1\n",
        "server/auth/sign-in.ts": uses("../admin-users/repository.ts", "../sessions/repository.ts", "../allowed-ips/repository.ts", "../blog/repository.ts"),
        "server/admin-users/repository.ts": uses("../sessions/repository.ts", "../auth/roles.ts", "../allowed-ips/repository.ts"),
        "server/allowed-ips/repository.ts": "export const x = 1\n",
        "server/sessions/repository.ts": "export const x = 1\n",
        "server/blog/repository.ts": uses("../platform/lists.ts", "../auth/roles.ts"),
        "server/blog/http.ts": uses("./repository.ts", "../listings/repository.ts"),
        "server/listings/repository.ts": "export const x = 1\n",
        "server/listings/writes.ts": uses("./repository.ts"),
        "server/events/http.ts": uses("../listings/repository.ts", "../listings/writes.ts", "../blog/repository.ts"),
        "server/history/kinds.ts": uses("../blog/repository.ts", "../listings/repository.ts", "../listings/writes.ts"),
        "server/history/http.ts": uses("./kinds.ts", "../blog/repository.ts"),
        "server/stream/http.ts": uses("../sessions/repository.ts", "../blog/repository.ts"),
        "server/cli/admin.ts": uses("../admin-users/repository.ts", "../allowed-ips/repository.ts"),
        "server/app.ts": uses("./blog/http.ts", "./events/http.ts")
      })
      const crossings = (await cruise(areas)).map((violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`)
      expect(crossings.sort()).toEqual([
        "server-areas-apart: server/admin-users/repository.ts → server/allowed-ips/repository.ts",
        "server-areas-apart: server/auth/sign-in.ts → server/blog/repository.ts",
        "server-areas-apart: server/blog/http.ts → server/listings/repository.ts",
        "server-areas-apart: server/events/http.ts → server/blog/repository.ts",
        "server-areas-apart: server/history/http.ts → server/blog/repository.ts",
        "server-areas-apart: server/history/kinds.ts → server/listings/writes.ts",
        "server-areas-apart: server/stream/http.ts → server/blog/repository.ts"
      ])
    } finally {
      rmSync(areas, { recursive: true, force: true })
    }
  }, 120_000)
})
