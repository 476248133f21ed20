import { type ConsoleStore, openConsoleStore } from "../../lib/store/console-store.ts"
import { holdStore } from "../../lib/store/handle.ts"
import { storeTransport } from "./transport.ts"

/**
 * The session's store, opening: started by start-up for the person this browser remembers, as
 * soon as the page runs (src/app/start/boot.ts), so a screen seen before shows from it without
 * waiting for React, the session check or the screens' code (docs/architecture.md, "The browser's
 * store"); the console's client takes it when it mounts for the same person, or opens its own.
 */
let opening: { readonly owner: string; readonly store: Promise<ConsoleStore> } | undefined

/** Told when the server says the session has ended; until the client mounts, remembered and told then. */
let sessionEnded: (() => void) | undefined
let endedEarly = false

const ended = () => {
  if (sessionEnded !== undefined) return sessionEnded()
  // Before the client mounted: the store opened for nobody's screens is closed, and the client told when it comes.
  endedEarly = true
  void opening?.store.then((store) => store.close())
  opening = undefined
  holdStore(undefined)
}

/** Opens `owner`'s store, or gives the one start-up is already opening for them. */
export const openStore = (owner: string): Promise<ConsoleStore> => {
  if (opening?.owner === owner) return opening.store
  void opening?.store.then((store) => store.close())
  opening = { owner, store: openConsoleStore({ owner, transport: storeTransport(ended) }) }
  return opening.store
}

/** The client mounted (`onEnded` set) or went (undefined): a store opened for it is its own from here. */
export const whenSessionEnds = (onEnded: (() => void) | undefined) => {
  sessionEnded = onEnded
  if (onEnded === undefined) {
    opening = undefined
    return
  }
  if (endedEarly) {
    endedEarly = false
    onEnded()
  }
}

/** Start-up's opening, for the person this browser remembers: held for the screens as soon as it is open. */
export const openEarly = (owner: string): void => {
  const store = openStore(owner)
  void store.then((open) => opening?.store === store && holdStore(open))
}

/** The session ended: a store opening or open here for it is closed (./session-ended.ts). */
export const closeOpening = async (): Promise<void> => {
  const was = opening
  opening = undefined
  if (was !== undefined) (await was.store.catch(() => undefined))?.close()
}
