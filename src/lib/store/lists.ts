import { type ListQuery, queryKey } from "../../../machines/list.ts"
import type { ListPage } from "../../../machines/list.ts"
import { ANY_KIND, type StoreKind } from "./kinds.ts"
import type { Stream } from "./stream.ts"
import type { ConsoleStore, Fields, RecordNews, StoredList } from "./store-types.ts"

/**
 * A list screen's way into the console's store (./console-store.ts; src/lib/list/use-list-screen.ts):
 * its rows as the store shows them, the page kept for the next visit, and when to read its rows
 * again (news of its kind the rows lack, the link back, rows read before this tab heard every
 * change).
 */

/** How long a list waits after a change in its kind before its rows are read again, quietly (changes come in bursts). */
const REREAD_AFTER_MS = 400

type Store = Pick<ConsoleStore, "keptPage" | "keepPage" | "onNews" | "view" | "waiting">

export const storedList = (store: Store, stream: Stream, of: StoreKind, title: string, idOf: (row: unknown) => string): StoredList => {
  /** Pages that came from the store, not the server: not kept again. */
  const fromStore = new WeakSet<object>()
  const pageKey = (query: ListQuery) => `${title}\u0000${queryKey(query)}`
  const fieldOf = (row: unknown, field: string) => (row as Fields)[field]
  const mixed = typeof of === "string" ? undefined : of
  const kind = typeof of === "string" ? of : ""
  const any = kind === ANY_KIND
  /** A row's kind: the list's, or the one a mixed list's row names. */
  const kindOf = (row: unknown) => (mixed === undefined ? kind : String(fieldOf(row, mixed.field)))
  const hears = (news: RecordNews) => any || (mixed === undefined ? news.kind === kind : mixed.kinds.includes(news.kind))
  // Pages are kept by kind: a list of any kind, or of several, keeps none.
  const keeps = !any && mixed === undefined
  return {
    kept: async (query) => {
      if (!keeps) return undefined
      const kept = await store.keptPage(pageKey(query))
      if (kept === undefined) return undefined
      const page = { ...(kept.extra as object), rows: kept.rows } as ListPage
      fromStore.add(page)
      return page
    },
    keep: (query, page) => {
      if (!keeps || page === null || fromStore.has(page)) return
      const { rows, ...extra } = page
      store.keepPage(
        kind,
        pageKey(query),
        rows.map((row) => ({ id: idOf(row), fields: row as Fields })),
        extra
      )
    },
    watch: (reread, { unseen, back, reading, readSince, failed } = {}) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      let heard: Array<RecordNews> = []
      let readAgain = false
      const judge = () => {
        // A read in flight: judged against the rows it brings (a slow answer, a busy machine).
        if (reading?.() === true) {
          timer = setTimeout(judge, REREAD_AFTER_MS / 4)
          return
        }
        // Judged when the moment has passed: a screen's own read after its change has the news already.
        const news = heard
        const always = readAgain
        heard = []
        readAgain = false
        if (always || unseen === undefined || news.some(unseen)) reread()
      }
      const later = (always: boolean) => {
        clearTimeout(timer)
        readAgain ||= always
        timer = setTimeout(judge, REREAD_AFTER_MS)
      }
      // Rows read before this tab heard every change (the stream's first connection, with no
      // position to resume from, went live after the read): read again now, after a read in
      // flight. A list that announces arrivals does too: what came before it heard them is no news.
      const heardLate = () => {
        // A read that failed (the link was down): the stream live again says the server answers now.
        if (stream.live() && failed?.() === true) return later(true)
        const since = stream.hearsSince()
        if (readSince === undefined || since === undefined || readSince() >= since) return
        clearTimeout(timer)
        readAgain = true
        judge()
      }
      const stop = store.onNews((news) => {
        if (!hears(news)) return
        heard.push(news)
        later(false)
      })
      // A failed read goes through the same moment as the stream's going live: one read, not two.
      const stopBack = stream.onBack(() => (back !== undefined && failed?.() !== true ? back() : later(true)))
      const stopLive = stream.onLive(heardLate)
      heardLate()
      return () => {
        stop()
        stopBack()
        stopLive()
        clearTimeout(timer)
      }
    },
    rows: (rows) =>
      rows.flatMap((row) => {
        const shown = store.view(kindOf(row), idOf(row), row as object)
        // A mixed list's row keeps the field naming its kind, which the record itself has not.
        return shown === null ? [] : [mixed === undefined ? shown : { ...shown, [mixed.field]: kindOf(row) }]
      }),
    waiting: (row) => store.waiting(kindOf(row), idOf(row)),
    moved: (field, page, shown) => {
      if (field === undefined || page === shown) return []
      const now = new Map(shown.map((row) => [idOf(row), fieldOf(row, field)]))
      return page.flatMap((row) => {
        const from = fieldOf(row, field)
        const to = now.get(idOf(row))
        return typeof from === "string" && typeof to === "string" && from !== to ? [[from, to] as const] : []
      })
    }
  }
}
