import { type ListPage, type ListQuery, queryKey } from "../../../machines/list.ts"
import { type KeptMarkup, keptForThisLoad, markupOfPage, SNAPSHOT_KEY as KEY } from "./kept-paint.ts"

/**
 * The list page a tab showed last, kept in the tab's `sessionStorage` as the page goes away (a
 * reload, a link followed out of the console), so that tab's next load shows it in its first
 * frames, before IndexedDB has opened, while the server is asked (docs/decisions.md, "A reload
 * paints from the tab"). One page, for the person it was shown to and the list and query it
 * was; read once; gone with the tab and when the session is forgotten (docs/security.md, "What
 * stays in the browser"). The markup it was shown in is kept with it: the next load paints it
 * before the console's code has run (./kept-paint.ts).
 */
interface Snapshot extends Pick<KeptMarkup, "at" | "owner">, Partial<Pick<KeptMarkup, "path" | "html" | "styles">> {
  readonly title: string
  readonly query: string
  readonly page: ListPage
}

/** Keeps the page shown; a full or refused storage keeps nothing. */
export const keepSnapshot = (owner: string, title: string, query: ListQuery, page: ListPage): void => {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ at: Date.now(), owner, title, query: queryKey(query), page, ...markupOfPage() } satisfies Snapshot))
  } catch {
    // Nothing kept: the next load reads the browser's store, as a new tab does.
  }
}

/** The page kept for this person's list and query, once: the next arrival reads the browser's store. */
export const takeSnapshot = (owner: string, title: string, query: ListQuery): ListPage | undefined => {
  try {
    const kept = sessionStorage.getItem(KEY)
    if (kept === null) return undefined
    const snapshot = JSON.parse(kept) as Snapshot
    // Kept as the page before this one went away, and asked for in this page's first seconds: a
    // copy left unread (a list that started with start-up's page) is never shown later.
    if (!(keptForThisLoad(snapshot.at, performance.timeOrigin) && performance.now() < 10_000)) {
      sessionStorage.removeItem(KEY)
      return undefined
    }
    if (snapshot.owner !== owner || snapshot.title !== title || snapshot.query !== queryKey(query)) return undefined
    sessionStorage.removeItem(KEY)
    return Array.isArray(snapshot.page?.rows) ? snapshot.page : undefined
  } catch {
    return undefined
  }
}

/** The session is forgotten (sign-out, a refused token): nothing it showed stays in the tab. */
export const forgetSnapshot = (): void => {
  try {
    sessionStorage.removeItem(KEY)
  } catch {
    // No storage: nothing was kept.
  }
}
