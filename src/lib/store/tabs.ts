import type { Answered, StreamedChange } from "./store-types.ts"

/**
 * The tabs of one browser, for the console's store (./console-store.ts; docs/architecture.md,
 * "The browser's store"): they tell each other what changed on a BroadcastChannel, and hold Web
 * Locks: one per tab while it lives, one for the outbox while a tab sends its first command, one
 * for the stream, whose holder listens to the server and tells the others. Without Web Locks or
 * the channel (an old browser, a test's Node) the tab is alone: it sends and listens itself.
 */

/** What the tabs of one browser tell each other. */
export type TabMessage =
  | { readonly type: "outbox" }
  | { readonly type: "change"; readonly change: StreamedChange }
  | { readonly type: "ready"; readonly position?: string; readonly complete?: boolean }
  | { readonly type: "hello" }
  | { readonly type: "answered"; readonly commandId: string; readonly answer: Answered }

export interface Tabs {
  /** This tab, while it lives: another tab that sends a command it waits on tells it the answer. */
  readonly id: string
  readonly tell: (message: TabMessage) => void
  /** What the other tabs say (one listener). */
  readonly hear: (listener: (message: TabMessage) => void) => void
  /** Whether the tab `id` still lives. */
  readonly lives: (id: string) => Promise<boolean>
  /** Runs `step` while no other tab of the person sends (the outbox's lock). */
  readonly sending: <T>(step: () => Promise<T>) => Promise<T>
  /** Calls `start` once this tab leads the stream: at once when alone, else when the leading tab closes. */
  readonly lead: (start: () => void) => void
  readonly close: () => void
}

export const joinTabs = (owner: string): Tabs => {
  const id = crypto.randomUUID()
  const channel = typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel(`console-store:${owner}`)
  const locks = globalThis.navigator?.locks
  let leave = () => {}
  void locks?.request(`console-tab:${id}`, () => new Promise<void>((resolve) => (leave = resolve)))
  let closed = false
  let resign = () => {}
  const tell = (message: TabMessage) => channel?.postMessage(message)
  return {
    id,
    tell,
    hear: (listener) => {
      if (channel !== undefined) channel.onmessage = ({ data }: MessageEvent<TabMessage>) => listener(data)
    },
    lives: async (other) => (await locks?.query())?.held?.some((lock) => lock.name === `console-tab:${other}`) === true,
    // The lock's promise settles with the callback's outcome (DOM typings nest the promise).
    sending: (step) => (locks === undefined ? step() : (locks.request(`console-outbox:${owner}`, step) as unknown as ReturnType<typeof step>)),
    lead: (start) => {
      if (locks === undefined || channel === undefined) return start()
      void locks.request(
        `console-stream:${owner}`,
        () =>
          new Promise<void>((resolve) => {
            resign = resolve
            if (closed) resolve()
            else start()
          })
      )
      // A tab that opens while another leads hears from it that the stream is live.
      tell({ type: "hello" })
    },
    close: () => {
      closed = true
      leave()
      resign()
      channel?.close()
    }
  }
}
