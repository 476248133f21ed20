import type { Plugin } from "vite"

/** cmdk's module, as its package ships it. */
const CMDK_MODULE = /[\\/]node_modules[\\/]cmdk[\\/]dist[\\/]index\.mjs$/
const STUB = "\0cmdk-without-dialog"

/**
 * cmdk's `Command` is one object holding its `Dialog` beside the list, input and items, so
 * importing any of it brings `@radix-ui/react-dialog` and what that needs (dismissable layer, focus
 * scope, scroll lock, portal, presence) to the first screen. The console never renders
 * `Command.Dialog`: the palette and "find" are cmdk lists in the browser's own `<dialog>`
 * (src/ui/ThemedCommandDialog.tsx). This build gives cmdk a dialog that throws if it is ever
 * rendered; every other import of the Radix dialog is left alone (docs/performance.md).
 */
export const cmdkWithoutDialog = (): Plugin => {
  let replaced = false
  return {
    name: "cmdk-without-dialog",
    apply: "build",
    enforce: "pre",
    buildStart() {
      replaced = false
    },
    resolveId(source, importer) {
      if (source !== "@radix-ui/react-dialog" || importer === undefined || !CMDK_MODULE.test(importer.split("?")[0] ?? "")) return undefined
      replaced = true
      return STUB
    },
    load(id) {
      if (id !== STUB) return undefined
      return [
        `const unused = () => { throw new Error("cmdk's Command.Dialog is left out of this build (tools/first-screen/cmdk-without-dialog.ts)") }`,
        "export { unused as Root, unused as Portal, unused as Overlay, unused as Content }"
      ].join("\n")
    },
    // A release that stops importing the Radix dialog, or moves its module, would leave this piece doing nothing without a word.
    buildEnd(error) {
      if (error === undefined && !replaced) {
        throw new Error(
          "cmdk-without-dialog: cmdk's dist/index.mjs no longer imports @radix-ui/react-dialog; revisit tools/first-screen/cmdk-without-dialog.ts"
        )
      }
    }
  }
}
