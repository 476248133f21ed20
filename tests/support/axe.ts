import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import type { Page } from "playwright-core"

/**
 * axe-core run in the page itself (docs/testing.md, "Accessibility"). Not `@axe-core/playwright`:
 * its `analyze()` injects axe again and opens a blank page to merge frame results on every call
 * (about 1.7 s a scan here, against 0.2-0.5 s), and the console has no frames to merge. Injected
 * once per document through `evaluate`, which the page's Content Security Policy does not govern.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<unknown> }>
}

/** Serious and critical axe violations on the page as it is now (open dialogs included), as `rule: targets`. */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<string>> => {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource)
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: ReadonlyArray<AxeViolation> }> } }).axe
    return (await axe.run(document, { resultTypes: ["violations"] })).violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => ({ target: node.target.map(String) }))
    }))
  })
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)
}
