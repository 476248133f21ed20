import { transform } from "lightningcss"
import type { Plugin } from "vite"

/**
 * What of Radix Themes' one stylesheet the console uses. The sheet carries every component,
 * all 30 colour scales and five breakpoints (683 kB); the console shows the components,
 * colours and breakpoint below, so the rest is cut at build time. A component, colour or
 * breakpoint taken into use must be added here (docs/architecture.md, "Styles").
 */
export interface RadixSubset {
  /** Colour scales used: the accent, the gray, and every `color=` a component is given. */
  readonly colors: ReadonlyArray<string>
  /** Component class prefixes never rendered (`rt-Slider` covers rt-SliderRoot, rt-SliderThumb…). */
  readonly unusedComponents: ReadonlyArray<string>
  /** Breakpoints used in responsive props (`{ initial: "1", md: "2" }` uses md). */
  readonly breakpoints: ReadonlyArray<string>
  /**
   * The props given responsive values, by their class (`p={{ md: "5" }}` is `rt-r-p`, Grid's
   * `columns` is `rt-r-gtc`): at a kept breakpoint, the sheet repeats every prop of every
   * component (59 kB at md alone); the rest are cut.
   */
  readonly responsive: ReadonlyArray<string>
}

const allColors = [
  "gray",
  "mauve",
  "slate",
  "sage",
  "olive",
  "sand",
  "tomato",
  "red",
  "ruby",
  "crimson",
  "pink",
  "plum",
  "purple",
  "violet",
  "iris",
  "indigo",
  "blue",
  "cyan",
  "teal",
  "jade",
  "green",
  "grass",
  "bronze",
  "gold",
  "brown",
  "orange",
  "amber",
  "yellow",
  "lime",
  "mint",
  "sky"
]
const allBreakpoints = ["xs", "sm", "md", "lg", "xl"]

const classNames = (selector: string) => [...selector.matchAll(/"type":"class","name":"([^"]+)"/g)].map((match) => match[1] ?? "")
const attributeValues = (selector: string, attribute: string) =>
  [...selector.matchAll(new RegExp(`"name":"${attribute}"[^}]*?"value":"([^"]+)"`, "g"))].map((match) => match[1] ?? "")

/** The stylesheet with the rules and colour variables no screen can use taken out. */
export const subsetRadixCss = (css: string, subset: RadixSubset): string => {
  const unusedColors = allColors.filter((color) => !subset.colors.includes(color))
  const unusedColorVariable = new RegExp(`^--(${unusedColors.join("|")})-`)
  const unusedBreakpoint = new RegExp(`^(${allBreakpoints.filter((b) => !subset.breakpoints.includes(b)).join("|")}):`)
  // Negative values are classes of their own: `md:-rt-r-mt-2`.
  const keptResponsive = new RegExp(`^(${subset.breakpoints.join("|")}):-?(${subset.responsive.join("|")})(-|$)`)
  const isUnusedResponsive = (name: string) => /^\w+:-?rt-/.test(name) && !keptResponsive.test(name)
  const isUnusedComponent = (name: string) =>
    subset.unusedComponents.some((prefix) => name === prefix || (name.startsWith(prefix) && /^[A-Z]/.test(name.slice(prefix.length))))
  const isUnused = (selector: unknown) => {
    const text = JSON.stringify(selector)
    return (
      classNames(text).some((name) => isUnusedComponent(name) || unusedBreakpoint.test(name) || isUnusedResponsive(name)) ||
      [...attributeValues(text, "data-accent-color"), ...attributeValues(text, "data-gray-color")].some((color) => unusedColors.includes(color))
    )
  }
  const { code } = transform({
    filename: "radix-themes.css",
    code: Buffer.from(css),
    minify: false,
    visitor: {
      Rule: {
        style(rule) {
          const kept = rule.value.selectors.filter((selector) => !isUnused(selector))
          if (kept.length === rule.value.selectors.length) return undefined
          return kept.length === 0 ? [] : { ...rule, value: { ...rule.value, selectors: kept } }
        }
      },
      Declaration: {
        custom(property) {
          return unusedColorVariable.test(property.name) ? [] : undefined
        }
      }
    }
  })
  return code.toString()
}

/** Applies the subset to `@radix-ui/themes/styles.css` as the build reads it. */
export const radixSubset = (subset: RadixSubset): Plugin => ({
  name: "radix-subset",
  enforce: "pre",
  transform: (code, id) => (/@radix-ui\/themes\/styles\.css(\?|$)/.test(id) ? { code: subsetRadixCss(code, subset), map: null } : undefined)
})
