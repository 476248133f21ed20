import { useSyncExternalStore } from "react"

/** Calls `changed` when the browser's link comes or goes; returns how to stop. */
export const onLinkChange = (changed: () => void) => {
  addEventListener("online", changed)
  addEventListener("offline", changed)
  return () => {
    removeEventListener("online", changed)
    removeEventListener("offline", changed)
  }
}

/** Whether the browser has a link, as it changes (docs/console.md, "Offline"). */
export const useOnline = (): boolean => useSyncExternalStore(onLinkChange, () => navigator.onLine)
