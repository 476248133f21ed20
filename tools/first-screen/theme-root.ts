import type { Plugin } from "vite"

/** Radix Themes' `Theme` module, as its package ships it. */
const THEME_MODULE = /@radix-ui\/themes\/dist\/esm\/components\/theme\.js$/
/** Its import of the tooltip primitive, whose `Provider` the root theme renders. */
const TOOLTIP_IMPORT = /Tooltip as (\w+)(,?)/

/**
 * Radix Themes' root `Theme` wraps the page in the tooltip primitive's provider, and so brings
 * the tooltip, the popper and Floating UI to every screen, the first
 * included, though only the blog editor's toolbar shows tooltips. This build replaces that
 * provider with a pass-through; a screen that shows tooltips renders the primitive's own
 * provider around them (src/features/blog/RichTextEditor.tsx). Without it Radix throws on
 * render, which the editor's tests would catch (docs/performance.md).
 */
export const themeRootWithoutTooltips = (): Plugin => {
  let patched = false
  return {
    name: "radix-theme-root-without-tooltips",
    apply: "build",
    enforce: "pre",
    buildStart() {
      patched = false
    },
    transform(code, id) {
      if (!THEME_MODULE.test(id.split("?")[0] ?? "")) return undefined
      const found = TOOLTIP_IMPORT.exec(code)
      if (found === null) throw new Error("radix-theme-root: Radix Themes' theme.js no longer imports Tooltip; revisit tools/first-screen/theme-root.ts")
      const local = found[1]!
      const withoutImport = code.replace(TOOLTIP_IMPORT, "")
      patched = true
      return { code: `${withoutImport}\nconst ${local}={Provider:(props)=>props.children};`, map: null }
    },
    // A release that moves theme.js would leave the tooltip on every screen without a word.
    buildEnd(error) {
      if (error === undefined && !patched) {
        throw new Error("radix-theme-root: no module matched @radix-ui/themes/dist/esm/components/theme.js; revisit tools/first-screen/theme-root.ts")
      }
    }
  }
}
