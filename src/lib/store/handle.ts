import { useSyncExternalStore } from "react"
import type { ConsoleStore } from "./console-store.ts"

export type { CallAs, CallInput } from "./console-store.ts"

/**
 * The session's store, once the app has opened it (src/app/store.ts): screens read it through
 * here, so the store's code and IndexedDB's stay out of the first screen (docs/architecture.md,
 * "The browser's store"). Until it is open, screens work from the server alone.
 */
let held: ConsoleStore | undefined
const holders = new Set<() => void>()

/** The app opened the session's store, or closed it (sign-out, another person). */
export const holdStore = (store: ConsoleStore | undefined) => {
  held = store
  for (const holder of holders) holder()
}

export const currentStore = (): ConsoleStore | undefined => held

const watchHeld = (listener: () => void) => {
  holders.add(listener)
  return () => void holders.delete(listener)
}
const heldNow = () => held
const never = () => () => {}
const none = () => 0

/** The store once open; the component renders again when it opens and whenever what it shows may change. */
export const useStore = (): ConsoleStore | undefined => {
  const store = useSyncExternalStore(watchHeld, heldNow)
  useSyncExternalStore(store?.subscribe ?? never, store?.version ?? none)
  return store
}

/** Where the browser's store has kept pages for this person: the next start opens it at once (src/app/client/). */
export const STORE_KEPT_KEY = "console-store"

let asker: ((signOut: () => void) => void) | undefined

/** Who asks before a sign-out that would drop waiting changes (src/app/client/ConsoleClient.tsx). */
export const askBeforeSignOut = (ask: ((signOut: () => void) => void) | undefined) => {
  asker = ask
}

/** Logout: the console's client asks first when changes are still waiting, and deletes the store. */
export const requestSignOut = (signOut: () => void) => (asker === undefined ? signOut() : asker(signOut))

/** Runs `run` with the session's store: at once when it is open (a change shows in this frame), else once the app opens it. */
export const withStore = (run: (store: ConsoleStore) => void): void => {
  if (held !== undefined) return run(held)
  const stop = watchHeld(() => {
    if (held === undefined) return
    stop()
    run(held)
  })
}

/**
 * A machine's save that also ends when the link is down and its command is kept in the browser's
 * outbox (`CallInput.kept`; docs/architecture.md, "Forms"): resolves with the server's answer, or
 * with undefined once kept, so the machine moves on as after a save (the console's shell says a
 * refusal when the link is back). `call` makes the call with the `kept` it is given.
 */
export const answeredOrKept = <A>(call: (kept: () => void) => Promise<A>): Promise<A | undefined> =>
  new Promise<A | undefined>((resolve, reject) => {
    call(() => resolve(undefined)).then(resolve, reject)
  })
