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

/** A rule's finding as the page hands it back: serializable, elements left behind. */
interface Finding {
  readonly id: string
  readonly impact: string | null
  readonly targets: ReadonlyArray<string>
}

/**
 * Runs axe and settles the text contrast it left undecided. axe does not judge text over a
 * background painted by a `::before` or `::after` ("pseudoContent"): Radix's Card paints its panel
 * that way, so every badge, button and line inside a card came back `incomplete`, and a scan that
 * read only violations passed 12 px badges at 3.99:1 (docs/testing.md, "Accessibility"). Those
 * nodes are judged again with the pseudo element's colour painted on its element itself, the
 * colour the text is seen on. Contrast axe still cannot judge is a finding too, never a pass.
 */
const scanInPage = async (): Promise<{ readonly violations: ReadonlyArray<Finding>; readonly undecided: ReadonlyArray<Finding> }> => {
  interface AxeNode {
    readonly target: ReadonlyArray<unknown>
    readonly element?: Element
    readonly any: ReadonlyArray<{ readonly data: unknown; readonly relatedNodes: ReadonlyArray<{ readonly element?: Element }> }>
  }
  interface AxeResult {
    readonly id: string
    readonly impact?: string | null
    readonly nodes: ReadonlyArray<AxeNode>
  }
  interface AxeResults {
    readonly violations: ReadonlyArray<AxeResult>
    readonly incomplete: ReadonlyArray<AxeResult>
  }
  const axe = (window as unknown as { axe: { run: (context: unknown, options: object) => Promise<AxeResults> } }).axe
  const dataOf = (node: AxeNode, key: string) => {
    const data = node.any[0]?.data
    return typeof data === "object" && data !== null && key in data ? String((data as Record<string, unknown>)[key]) : undefined
  }
  const reason = (node: AxeNode) => dataOf(node, "messageKey") ?? "unknown"
  // A contrast found too low says how low: "(3.99:1)".
  const named = (node: AxeNode) => {
    const ratio = dataOf(node, "contrastRatio")
    return `${node.target.map(String).join(" ")}${ratio === undefined ? "" : ` (${ratio}:1)`}`
  }
  const findings = (results: ReadonlyArray<AxeResult>) =>
    results.map((result) => ({ id: result.id, impact: result.impact ?? null, targets: result.nodes.map(named) }))
  // What axe leaves undecided by design, not for want of a background: symbols and no letters
  // (a sort arrow, "nonBmp"), and text drawn inside an SVG picture (the dashboard's chart labels, "imgNode").
  const notText = ["nonBmp", "imgNode"]
  const contrastOf = (results: ReadonlyArray<AxeResult>) => results.find((result) => result.id === "color-contrast")?.nodes ?? []

  const first = await axe.run(document, { resultTypes: ["violations", "incomplete"], elementRef: true })
  const overPseudo = contrastOf(first.incomplete).filter((node) => reason(node) === "pseudoContent")
  const hosts = new Set(overPseudo.flatMap((node) => node.any.flatMap((check) => check.relatedNodes.map((related) => related.element))))
  const lifted: Array<{ readonly host: HTMLElement; readonly inline: string }> = []
  const clear = "rgba(0, 0, 0, 0)"
  for (const host of hosts) {
    if (!(host instanceof HTMLElement)) continue
    const painted = [getComputedStyle(host, "::before"), getComputedStyle(host, "::after")].filter((pseudo) => pseudo.backgroundColor !== clear)
    const [pseudo] = painted
    if (painted.length !== 1 || pseudo === undefined || pseudo.backgroundImage !== "none") continue
    // Over a background of the element's own, only an opaque colour is the one seen.
    if (getComputedStyle(host).backgroundColor !== clear && !pseudo.backgroundColor.startsWith("rgb(")) continue
    lifted.push({ host, inline: host.style.backgroundColor })
    host.style.setProperty("background-color", pseudo.backgroundColor, "important")
    host.dataset.axeLifted = ""
  }
  const sheet = document.createElement("style")
  sheet.textContent = "[data-axe-lifted]::before, [data-axe-lifted]::after { background: none !important; }"
  document.head.append(sheet)
  let again: AxeResults = { violations: [], incomplete: [] }
  try {
    const elements = overPseudo.map((node) => node.element).filter((element) => element !== undefined)
    if (elements.length > 0) again = await axe.run({ include: elements }, { runOnly: ["color-contrast"], resultTypes: ["violations", "incomplete"] })
  } finally {
    sheet.remove()
    for (const { host, inline } of lifted) {
      host.style.backgroundColor = inline
      delete host.dataset.axeLifted
    }
  }
  const undecided = [...contrastOf(first.incomplete).filter((node) => reason(node) !== "pseudoContent"), ...contrastOf(again.incomplete)]
    .filter((node) => !notText.includes(reason(node)))
    .map((node): Finding => ({ id: `color-contrast undecided (${reason(node)})`, impact: null, targets: [node.target.map(String).join(" ")] }))
  return { violations: [...findings(first.violations), ...findings(again.violations)], undecided }
}

/**
 * Serious and critical axe violations on the page as it is now (open dialogs included), as
 * `rule: targets`; text contrast axe could not judge is listed as `color-contrast undecided`.
 */
export const seriousViolations = async (page: Page): Promise<ReadonlyArray<string>> => {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource)
  const { violations, undecided } = await page.evaluate(scanInPage)
  return [
    ...violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.targets.join(", ")}`),
    ...undecided.map((finding) => `${finding.id}: ${finding.targets.join(", ")}`)
  ]
}
