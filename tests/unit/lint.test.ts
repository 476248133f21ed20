import { ESLint } from "eslint"
import { join, resolve } from "node:path"
import * as prettier from "prettier"
import { describe, expect, it } from "vitest"

/**
 * `npm run lint` (run first by `npm test`) runs ESLint (eslint.config.js) and Prettier's check
 * (.prettierrc.json) over the whole tree besides the layer rules (tests/unit/layers.test.ts). Both
 * must refuse a planted violation: files that are not on disk, linted as if they were in `src/`
 * and `server/`, with the project's own configuration.
 */
const root = resolve(import.meta.dirname, "../..")
const eslint = new ESLint({
  cwd: root,
  overrideConfig: {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["src/lib/planted-*.ts", "server/planted-*.ts", "server/*/planted-*.ts", "tools/planted-*.ts"],
          defaultProject: "tsconfig.json"
        }
      }
    }
  }
})
const rulesBroken = async (path: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) })
  return (result?.messages ?? []).map((message) => message.ruleId)
}

describe("the code rules", () => {
  it("refuse an effect that reads a value it does not list", async () => {
    const code =
      'import { useEffect, useState } from "react"\nexport const useShown = (n: number) => {\n  const [shown, setShown] = useState(0)\n  useEffect(() => setShown(n), [])\n  return shown\n}\n'
    expect(await rulesBroken("src/lib/planted-hook.ts", code)).toEqual(["react-hooks/exhaustive-deps"])
    expect(await rulesBroken("src/lib/planted-hook.ts", code.replace("[])", "[n])"))).toEqual([])
  }, 60_000)

  it("refuse a promise left floating and an Error-less throw", async () => {
    expect(await rulesBroken("server/planted-promise.ts", "export const f = (x: Promise<number>) => {\n  x.then(() => 1)\n}\n")).toEqual([
      "@typescript-eslint/no-floating-promises"
    ])
    expect(await rulesBroken("server/planted-throw.ts", 'export const f = () => {\n  throw { message: "no" }\n}\n')).toEqual([
      "@typescript-eslint/only-throw-error"
    ])
  }, 60_000)

  it("refuse SQL in every area file but the area's repository, and take it there", async () => {
    const code =
      'import { Effect } from "effect"\nimport { SqlClient } from "effect/sql/SqlClient"\nexport const one = Effect.flatMap(SqlClient, (sql) => sql`SELECT 1`)\n'
    expect(await rulesBroken("server/contacts/http.ts", code)).toEqual(["no-restricted-imports", "no-restricted-syntax"])
    expect(await rulesBroken("server/blog/scheduler.ts", code)).toEqual(["no-restricted-imports", "no-restricted-syntax"])
    expect(await rulesBroken("server/contacts/repository.ts", code)).toEqual([])
    // A fragment handed to the write path is SQL too, whatever form it takes.
    const fragments =
      'import type { SqlClient } from "effect/sql/SqlClient"\nexport const due = (sql: SqlClient) => [sql.in([1]), sql("posts"), sql.withoutTransforms()`SELECT 1`]\n'
    expect(await rulesBroken("server/blog/scheduler.ts", fragments)).toEqual(["no-restricted-syntax", "no-restricted-syntax", "no-restricted-syntax"])
    expect(await rulesBroken("server/blog/repository.ts", fragments)).toEqual([])
  }, 60_000)

  it("refuse turning database failures into defects anywhere but the one place", async () => {
    const handler =
      'import { Effect } from "effect"\nexport const f = (e: Effect.Effect<number, { _tag: "SqlError" }>) => e.pipe(Effect.catchTag("SqlError", Effect.die))\n'
    expect(await rulesBroken("server/contacts/http.ts", handler)).toEqual(["no-restricted-syntax"])
    expect(await rulesBroken("server/contacts/repository.ts", handler)).toEqual(["no-restricted-syntax"])
    expect(await rulesBroken("server/platform/planted-reads.ts", handler)).toEqual(["no-restricted-syntax"])
    const dying = 'import { Effect } from "effect"\nexport const f = (e: Effect.Effect<number, Error>) => Effect.orDie(e)\n'
    expect(await rulesBroken("server/contacts/http.ts", dying)).toEqual(["no-restricted-syntax"])
    expect(await rulesBroken("server/contacts/repository.ts", dying)).toEqual(["no-restricted-syntax"])
    // A handler may still name the SQL client's type, to hand its context to a stream.
    const typeOnly = 'import type { SqlClient } from "effect/sql/SqlClient"\nexport type Needs = SqlClient\n'
    expect(await rulesBroken("server/uploads/http.ts", typeOnly)).toEqual([])
  }, 60_000)

  it("refuse a read of the environment outside the validated configuration's two readers", async () => {
    const code = 'export const kept = process.env.RECORD_HISTORY !== "off"\n'
    expect(await rulesBroken("server/platform/planted-switch.ts", code)).toEqual(["no-restricted-properties"])
    expect(await rulesBroken("tools/planted-switch.ts", code.replace(".RECORD_HISTORY", '["CONSOLE_WITHOUT"]'))).toEqual(["no-restricted-properties"])
    expect(await rulesBroken("server/main.ts", code)).toEqual([])
  }, 60_000)

  it("refuse code not in the formatter's layout", async () => {
    const filepath = join(root, "src/lib/planted-format.ts")
    const options = { ...(await prettier.resolveConfig(filepath)), filepath }
    expect(await prettier.check("export const a = { b: 1 }\n", options)).toBe(true)
    expect(await prettier.check("export const a = {b: 1};\n", options)).toBe(false)
  })
})
