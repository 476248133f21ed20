import type { BrowserStore } from "./browser-store.ts"
import { listenersOf } from "./listeners.ts"
import type { Outbox } from "./outbox.ts"
import type { Records } from "./records.ts"
import type { RecordNews, StoreTransport, StreamedChange } from "./store-types.ts"
import type { TabMessage, Tabs } from "./tabs.ts"

/**
 * The server's changes in the console's store (./console-store.ts; docs/architecture.md, "The
 * browser's store"): one stream per browser, listened to by the tab that leads (./tabs.ts) from
 * the store's last event and told to the others; each change keeps the record's copy
 * (./records.ts) and is news to the screens. It also says when the link is live and when it is
 * back after a drop, for the lists (./lists.ts) and the sync machine.
 */

/** How long a first visit's stream waits for the reads on their way, to start where they were read. */
const FIRST_READS_WAIT_MS = 2_000

/** The area whose records are never kept in the browser. */
const PROTECTED_AREA = "protected-data"

export interface StreamParts {
  readonly db: BrowserStore
  readonly transport: StoreTransport
  readonly records: Records
  readonly tabs: Tabs
  readonly sync: Outbox["sync"]
  readonly write: (step: () => Promise<unknown>) => Promise<unknown>
  readonly bump: () => void
  readonly tell: (news: RecordNews) => void
}

export interface Stream {
  /** Applies a streamed change; `persist`: this tab writes it (the leading tab; the others only hear it). */
  readonly applyChange: (change: StreamedChange, persist?: boolean) => void
  /** What another tab said of the stream (a change, its going live, a new tab's hello). */
  readonly heard: (message: TabMessage) => void
  /** Whether the stream is live. */
  readonly live: () => boolean
  /**
   * From when this tab hears every change (performance.now()): 0 when its stream resumed from the
   * store's last event or, on a first visit, from where the server read this load's first answers
   * (the catch-up brings what any read here could lack), else the moment it went live; undefined before.
   */
  readonly hearsSince: () => number | undefined
  /** Called each time the stream goes live. Returns the way to stop. */
  readonly onLive: (listener: () => void) => () => void
  /** Called when the link is back after a drop (the browser online again, the stream live again). Returns the way to stop. */
  readonly onBack: (listener: () => void) => () => void
  /** Listens to the server: this tab leads (./tabs.ts). */
  readonly lead: () => void
  readonly close: () => void
}

export const openStream = async ({ db, transport, records, tabs, sync, write, bump, tell }: StreamParts): Promise<Stream> => {
  const wentLive = listenersOf<() => void>()
  const back = listenersOf<() => void>()

  // The link back (the browser online again, a retry that got through): lists read their rows
  // again. Not the sync's own retry while the browser still says it has no link: that read would
  // fail, and the stream's going live again says when the server answers (../../api/change-stream.ts).
  let wasOffline = false
  sync.subscribe((snapshot) => {
    const offline = snapshot.matches({ link: "offline" })
    if (wasOffline && !offline && globalThis.navigator?.onLine !== false) back.each()
    wasOffline = offline
  })
  const linkDown = () => sync.send({ type: "LINK_DOWN" })
  const linkUp = () => sync.send({ type: "LINK_UP" })
  globalThis.addEventListener?.("offline", linkDown)
  globalThis.addEventListener?.("online", linkUp)
  if (globalThis.navigator?.onLine === false) linkDown()

  let lastEventId = await db.lastEventId()
  const applyChange = (change: StreamedChange, persist = true) => {
    lastEventId = change.id
    // Protected data never enters the browser's store, not even without its values (docs/security.md).
    if (change.area === PROTECTED_AREA) return
    const deleted = change.type.endsWith(".deleted")
    let whole = false
    if (deleted) {
      records.forget(change.area, change.entityId)
      whole = true
      if (persist) void write(() => db.apply({ kind: change.area, id: change.entityId, version: null, fields: null }))
    } else if (change.fields !== null) {
      whole = true
      if (records.keep(change.area, change.entityId, change.fields, true) && persist)
        void write(() => db.keep(change.area, [{ id: change.entityId, version: change.version, fields: change.fields ?? {} }]))
    }
    if (persist) void write(() => db.keepLastEventId(change.id))
    bump()
    tell({ kind: change.area, id: change.entityId, whole, version: change.version, deleted })
  }

  let connections = 0
  let live = false
  let hearsSince: number | undefined
  let resumes = false
  let leading = false
  /** `complete`: the stream's catch-up brought everything after the position it resumed from. */
  const ready = (complete = true) => {
    live = true
    linkUp()
    sync.send({ type: "CAUGHT_UP" })
    if (hearsSince === undefined) hearsSince = resumes && complete ? 0 : performance.now()
    wentLive.each()
    // Back after a drop: the lists read their rows again (what a failed read missed, and any
    // change past the stream's catch-up).
    if (++connections > 1) back.each()
  }

  let stopListening = () => {}
  // One stream per browser: the tab holding the lock listens and tells the others; when it
  // closes, the next tab takes the lock and resumes from the store's last event.
  let closed = false
  const listen = (from: string | undefined) => {
    if (closed) return
    resumes = from !== undefined
    stopListening = transport.listen(
      from,
      (change) => {
        applyChange(change)
        tabs.tell({ type: "change", change })
      },
      (position, complete = true) => {
        // Where the stream is, though no change came yet: the next load resumes there, and its
        // catch-up brings what a read before its stream went live could lack.
        if (position !== undefined && position !== lastEventId) {
          lastEventId = position
          void write(() => db.keepLastEventId(position))
        }
        ready(complete)
        tabs.tell({ type: "ready", position, complete })
      }
    )
  }
  const lead = () => {
    leading = true
    // With no event of its own (a first visit, a new sign-in), from where the server read this
    // load's first answers, once those on their way have answered: the catch-up brings what they
    // lack, and the first page is not read again. A read that takes longer leaves the stream to
    // start from the newest event, and the lists to read again what came before it.
    if (lastEventId !== undefined || transport.firstReadSettled === undefined) listen(lastEventId)
    else void transport.firstReadSettled(FIRST_READS_WAIT_MS).then(listen)
  }

  return {
    applyChange,
    heard: (message) => {
      if (message.type === "change" && !leading) applyChange(message.change, false)
      else if (message.type === "ready" && !leading) {
        // The leader's position: this tab resumes from it if it comes to lead.
        if (message.position !== undefined) lastEventId = message.position
        // This tab's first reads stood at or past it: they hold what came before, the leader tells the rest.
        const read = transport.firstRead?.()
        resumes = read !== undefined && message.position !== undefined && BigInt(read) >= BigInt(message.position)
        ready(message.complete)
      } else if (message.type === "hello" && leading && live) tabs.tell({ type: "ready", position: lastEventId })
    },
    live: () => live,
    hearsSince: () => hearsSince,
    onLive: wentLive.add,
    onBack: back.add,
    lead,
    close: () => {
      closed = true
      stopListening()
      globalThis.removeEventListener?.("offline", linkDown)
      globalThis.removeEventListener?.("online", linkUp)
    }
  }
}
