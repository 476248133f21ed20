import { TOKEN_KEY, USER_KEY } from "../token.ts"

/**
 * The page a reload shows before the console's code has run (docs/decisions.md, "A reload paints
 * from the tab"). The list page a tab showed last is kept in its `sessionStorage` as the page
 * goes away (./tab-snapshot.ts), with the markup it was shown in. The next load of the same
 * address in the same tab, for the same person, paints that markup from an inline script at the
 * end of `index.html` (tools/first-screen/page-preloads.ts) as an inert layer over the page, while
 * React, the session check and the server's rows are still on their way; the layer goes as soon
 * as the list shows its own rows (../first-screen.ts), or when the sign-in form shows instead. It
 * answers no key or click (`inert`) and is hidden from screen readers: the console itself is
 * what they read, a moment later.
 */

/** The `sessionStorage` key of the tab's copy (./tab-snapshot.ts). */
export const SNAPSHOT_KEY = "list-snapshot"

/** The kept layer's element id. */
const LAYER_ID = "kept-page"

/** Only the console's own built stylesheets are asked for by the layer. */
const OWN_STYLESHEET = /^\/assets\/[\w.-]+\.css$/u

/** The parts of the tab's copy the layer paints. */
export interface KeptMarkup {
  /** When it was kept (Date.now()): only the load that follows at once paints it. */
  readonly at: number
  readonly owner: string
  /** The address it was shown at (path and query). */
  readonly path: string
  /** The console's markup, `#root`'s content as it was shown. */
  readonly html: string
  /** The built stylesheets the page had, by path: the layer's needs, render-blocking. */
  readonly styles: ReadonlyArray<string>
}

/** Whether a copy kept `at` (Date.now()) belongs to the load that started at `timeOrigin`. */
export const keptForThisLoad = (at: number, timeOrigin: number): boolean => {
  const before = timeOrigin - at
  return before >= -1_000 && before < 60_000
}

/** The markup to keep for a reload: the page as shown, and the stylesheets it needs. */
export const markupOfPage = (): Pick<KeptMarkup, "path" | "html" | "styles"> | undefined => {
  const root = document.getElementById("root")
  if (root === null) return undefined
  const styles = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')]
    .map((link) => new URL(link.href, location.href))
    .filter((url) => url.origin === location.origin && OWN_STYLESHEET.test(url.pathname))
    .map((url) => url.pathname)
  return { path: location.pathname + location.search, html: root.innerHTML, styles }
}

/** The inline script: paints the tab's copy for this load, if there is one for it. */
export const paintKeptPage = (): void => {
  try {
    if (localStorage.getItem(TOKEN_KEY) === null) return
    const raw = sessionStorage.getItem(SNAPSHOT_KEY)
    if (raw === null) return
    const kept = JSON.parse(raw) as Partial<KeptMarkup>
    if (typeof kept.html !== "string" || typeof kept.at !== "number" || !keptForThisLoad(kept.at, performance.timeOrigin)) return
    if (kept.path !== location.pathname + location.search) return
    const user = JSON.parse(localStorage.getItem(USER_KEY) ?? "null") as { readonly _id?: unknown } | null
    if (user?._id === undefined || user._id !== kept.owner) return
    for (const href of kept.styles ?? []) {
      if (!OWN_STYLESHEET.test(href) || document.querySelector(`link[rel="stylesheet"][href="${href}"]`) !== null) continue
      const link = document.createElement("link")
      link.rel = "stylesheet"
      link.href = href
      link.setAttribute("blocking", "render")
      document.head.append(link)
    }
    const layer = document.createElement("div")
    layer.id = LAYER_ID
    layer.inert = true
    layer.setAttribute("aria-hidden", "true")
    Object.assign(layer.style, { position: "fixed", inset: "0", zIndex: "2147483647", overflow: "hidden" })
    layer.innerHTML = kept.html
    // A copy while the server is asked: its lists say they are loading, as the console's will.
    for (const busy of layer.querySelectorAll("[aria-busy]")) busy.setAttribute("aria-busy", "true")
    document.body.append(layer)
  } catch {
    // No storage, or a copy that is not one: the console paints itself.
  }
}

/** The console shows its own first screen: the kept layer, if any, goes. */
export const dropKeptPaint = (): void => document.getElementById(LAYER_ID)?.remove()
