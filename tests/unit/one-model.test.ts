import { readdirSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

/**
 * The console's one model, held (docs/architecture.md, "Layers"; "The list pattern"): a write
 * names its call through the contract, never a path written out; the store, not a feature, works
 * out the version a command names; the desk lists the kinds' decisions; a list screen is its
 * declaration, its logic in hooks beside it; no file a newcomer must read whole is over 400 lines.
 */
const sources = (readdirSync("src", { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isFile: () => boolean }>)
  .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
  .map((entry) => {
    const path = `${entry.parentPath}/${entry.name}`
    return { path, text: readFileSync(path, "utf8") }
  })

const linesOf = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0)

/**
 * The lines a list screen's component holds before its first column or card: from
 * `export const …Screen` to the first `columns` or `card`/`cards` after it.
 */
const linesBeforeRows = (text: string): number | undefined => {
  const lines = text.split("\n")
  const rendered = lines.findIndex((line) => line.includes("<ListScreen"))
  if (rendered < 0) return undefined
  const start = lines.slice(0, rendered).findLastIndex((line) => /^export (const|function) \w+/.test(line))
  const first = lines.findIndex((line, at) => at > start && /\bcolumns\b|\bcards?\b\s*[:=]/.test(line))
  return first < 0 ? undefined : first - start
}

describe("one model in the console", () => {
  it('writes no API path: every call is the contract\'s ("/api/" appears nowhere in src/)', () => {
    expect(sources.filter((file) => file.text.includes('"/api/')).map((file) => file.path)).toEqual([])
  })

  it("leaves the version a command names to the store: no feature calls nextVersion", () => {
    expect(sources.filter((file) => file.path.startsWith("src/features/") && file.text.includes("nextVersion(")).map((file) => file.path)).toEqual([])
  })

  it("keeps the desk's decisions a list of the kinds' (40 lines at most)", () => {
    expect(linesOf(readFileSync("src/features/triage/decisions.ts", "utf8"))).toBeLessThanOrEqual(40)
  })

  it("declares each decision once: no feature names a command's call, and every area with a decision table makes its keys from it", () => {
    expect(sources.filter((file) => file.path.startsWith("src/features/") && file.text.includes("callTo(")).map((file) => file.path)).toEqual([])
    const tables = sources.filter((file) => file.path.startsWith("src/kinds/") && /: ReadonlyArray<Decision</.test(file.text))
    expect(tables.map((file) => file.path).sort()).toEqual([
      "src/kinds/contacts.ts",
      "src/kinds/inquiries.ts",
      "src/kinds/listings.ts",
      "src/kinds/scam-reports.ts"
    ])
    // The screens of contacts, inquiries and scam reports turn the table's entries into their keys, palette commands and bulk.
    for (const area of ["contacts", "advertising", "scam-reports"])
      expect(sources.some((file) => file.path.startsWith(`src/features/${area}/`) && /decisionAction[<(]/.test(file.text))).toBe(true)
  })

  it("has no file in src/ over 400 lines", () => {
    expect(sources.filter((file) => linesOf(file.text) > 400).map((file) => `${file.path}: ${linesOf(file.text)}`)).toEqual([])
  })

  it("declares every list screen in 30 lines or fewer before its first column or card", () => {
    const screens = sources.flatMap((file) => {
      const before = file.path.startsWith("src/features/") && file.path.endsWith(".tsx") ? linesBeforeRows(file.text) : undefined
      return before === undefined ? [] : [{ path: file.path, before }]
    })
    expect(screens.length).toBeGreaterThanOrEqual(12)
    expect(screens.filter((screen) => screen.before > 30).map((screen) => `${screen.path}: ${screen.before}`)).toEqual([])
  })

  it("counts the lines before the rows as a reader would", () => {
    const screen = ["import x", "export const AScreen = () => {", "  const a = 1", "  return (", "    <ListScreen", "      view={{ cards: {} }}"].join("\n")
    expect(linesBeforeRows(screen)).toBe(4)
    expect(linesBeforeRows("export const Plain = () => null")).toBeUndefined()
  })
})
