import { useSyncExternalStore } from "react"

/**
 * How many changes wait in this browser for the person whose session the server ended
 * (docs/security.md, "What stays in the browser"), so the sign-in screen says so: kept in
 * `localStorage` from the moment the console forgot the session's records until a store opens
 * again (the same person's sends them; another person's deletes them). A count, nothing else.
 */
export const WAITING_KEY = "console-waiting"

const listeners = new Set<() => void>()

export const keepWaitingCount = (count: number): void => {
  if (count > 0) localStorage.setItem(WAITING_KEY, String(count))
  else localStorage.removeItem(WAITING_KEY)
  for (const listener of listeners) listener()
}

const read = () => Number(globalThis.localStorage?.getItem(WAITING_KEY) ?? "0") || 0
const watch = (listener: () => void) => {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/** The count, kept current while the screen shows. */
export const useWaitingCount = (): number => useSyncExternalStore(watch, read)
