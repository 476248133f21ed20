import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { root } from "../support/process.ts"

/**
 * The docs stay short enough to read and their sections stay where the code says they are: the
 * README runs, configures and points (at most 150 lines), docs/architecture.md is today's
 * structure (at most 300), and every citation of a section, `docs/X.md, "Section"` in a comment
 * or a doc (also `docs/X.md ("Section"`, across a comment's line break, and `README, "Section"`),
 * names a heading that exists. A heading matches when it is the cited name, or starts with it and goes on after a
 * comma, a colon or a bracket ("What the servers share" finds "What the servers share, and how").
 * A numbered citation of the product spec (`docs/product-spec.md §4 "Blog status"`) names a
 * passage, not a heading, and is left out.
 */
const lineCount = (path: string) => readFileSync(join(root, path), "utf8").replace(/\n$/, "").split("\n").length

const skipped = new Set(["node_modules", ".git", "build", "dist", "coverage", "reports", ".stryker-tmp", "data"])
const scanned = /\.(ts|tsx|js|cjs|mjs|css|html|md)$|^run$/

const filesUnder = (folder: string): ReadonlyArray<string> =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : filesUnder(path)
    return entry.isFile() && scanned.test(entry.name) ? [path] : []
  })

/** Headings of a doc (`README.md` or a file of docs/), as written after the `#`s. */
const headingsOf = (doc: string): ReadonlyArray<string> =>
  readFileSync(join(root, doc), "utf8")
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line))
    .map((line) => line.replace(/^#+ /, "").trim())

const names = (heading: string, cited: string) => heading === cited || (heading.startsWith(cited) && /^(,|:| \()/.test(heading.slice(cited.length)))

/** `docs/X.md, "Section"`, `docs/X.md "Section"`, `docs/X.md ("Section"`; a comment may break the line between. */
const citation = /(docs\/[a-z-]+\.md|README)(?:\.md)?`?(?:,\s*|\s+\(?)(?:(?:\/\/|\*|#)\s*)?\(?"([^"\n]+)"/g

/** Every citation in the repository's sources and docs, this file's own examples left out. */
const citations = () =>
  filesUnder(root)
    .filter((file) => file !== fileURLToPath(import.meta.url))
    .flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(citation)].map((match) => ({
        file: relative(root, file),
        doc: match[1] === "README" ? "README.md" : match[1]!,
        section: match[2]!
      }))
    )

describe("the docs", () => {
  it("keep the README to 150 lines", () => {
    expect(lineCount("README.md")).toBeLessThanOrEqual(150)
  })

  it("keep docs/architecture.md to 300 lines", () => {
    expect(lineCount("docs/architecture.md")).toBeLessThanOrEqual(300)
  })

  it("have every section the code and the docs cite", () => {
    const docs = ["README.md", ...readdirSync(join(root, "docs")).flatMap((name) => (name.endsWith(".md") ? [`docs/${name}`] : []))]
    const found = citations()
    expect(found.length).toBeGreaterThan(100)
    const headings = new Map(docs.map((doc) => [doc, headingsOf(doc)]))
    const broken = found
      .filter(({ doc, section }) => !(headings.get(doc) ?? []).some((heading) => names(heading, section)))
      .map(({ file, doc, section }) => `${file}: ${doc}, "${section}"`)
    expect([...new Set(broken)]).toEqual([])
  })
})
