import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { describe, expect, it } from "vitest"
import { root } from "../support/process.ts"

/**
 * Two list pieces draw Radix Themes' markup with its class names written out instead of its
 * components (src/ui/list/ListTable.tsx: no ScrollArea on the first screen; RowActions.tsx:
 * twenty rows of buttons without twenty Button components; docs/architecture.md, "First
 * screen"). If a Radix Themes release renames a class, those pieces would lose their styles
 * without an error: this test fails instead, naming the class.
 */
const require = createRequire(import.meta.url)
const radixCss = readFileSync(join(dirname(require.resolve("@radix-ui/themes/package.json")), "styles.css"), "utf8")

const sourcesUnder = (folder: string): ReadonlyArray<string> =>
  readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))

/** Every `rt-…` class name written in the console's own source. */
const writtenClasses = () => {
  const found = new Map<string, string>()
  for (const file of sourcesUnder(join(root, "src"))) {
    for (const literal of readFileSync(file, "utf8").matchAll(/className="([^"]*)"/g)) {
      for (const name of literal[1]!.split(/\s+/)) if (name.startsWith("rt-")) found.set(name, file.slice(root.length + 1))
    }
  }
  return found
}

/** Whether the stylesheet styles `.name` itself (not only a longer class that starts with it). */
const styled = (name: string) => new RegExp(`\\.${name.replace(/[^\w-]/g, "\\$&")}(?![\\w-])`).test(radixCss)

describe("Radix Themes class names written by hand", () => {
  it("are all in the installed Radix Themes stylesheet", () => {
    const written = writtenClasses()
    expect(written.size).toBeGreaterThan(10)
    const missing = [...written].filter(([name]) => !styled(name)).map(([name, file]) => `${name} (${file})`)
    expect(missing).toEqual([])
  })

  it("tells a class the stylesheet has from one it does not, even one a real class starts with", () => {
    expect(styled("rt-TableRow")).toBe(true)
    expect(styled("rt-TableRo")).toBe(false)
    expect(styled("rt-TableRowRenamed")).toBe(false)
  })
})
