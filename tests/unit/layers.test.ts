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
      "server/console.ts": 'import { shared } from "../src/lib/shared.ts"\nexport const c = shared\n',
      "src/api/call.ts": 'import { p } from "../../server/platform/p.ts"\nexport const call = p\n',
      "tools/plugin.ts": 'import { shared } from "../src/lib/shared.ts"\nexport const plugin = shared\n',
      "src/features/one/screen.ts": 'import { two } from "../two/screen.ts"\nimport { app } from "../../app/app.ts"\nexport const one = two + app\n',
      "src/features/two/screen.ts": "export const two = 2\n",
      "src/app/app.ts": "export const app = 1\n",
      "src/ui/field.ts": 'import { call } from "../api/call.ts"\nexport const field = call\n',
      "src/lib/loop-a.ts": 'import { b } from "./loop-b.ts"\nexport const a = () => b()\n',
      "src/lib/loop-b.ts": 'import { a } from "./loop-a.ts"\nexport const b = () => a\n'
    })
    const broken = new Set((await cruise(planted)).map((violation) => violation.rule.name))
    expect([...broken].sort()).toEqual([
      "console-not-server",
      "contract-only-effect",
      "features-apart",
      "features-not-app",
      "machines-only-contract-and-xstate",
      "no-circular",
      "platform-not-areas",
      "server-not-console",
      "shared-not-api-or-features",
      "tools-not-console"
    ])
  }, 120_000)
})
