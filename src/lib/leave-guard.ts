import { useCallback } from "react"
import type { BaseLocationHook } from "wouter"
import { useBrowserLocation } from "wouter/use-browser-location"

/** Asked before the console navigates: return false to stay (the screen then asks the person). */
export type LeaveGuard = (to: string) => boolean

let current: LeaveGuard | null = null

/** A screen with unsaved work sets a guard while it is open, and clears it when it closes. */
export const setLeaveGuard = (guard: LeaveGuard | null) => {
  current = guard
}

/**
 * The browser location, with every in-app navigation (links, the sidebar, shortcuts, the
 * palette) passing the guard first.
 */
export const useGuardedLocation: BaseLocationHook = (options?: { ssrPath?: string }) => {
  const [location, navigate] = useBrowserLocation(options)
  const guarded = useCallback(
    (to: string | URL, navigateOptions?: Parameters<typeof navigate>[1]) => {
      if (current === null || current(String(to))) navigate(to, navigateOptions)
    },
    [navigate]
  )
  return [location, guarded]
}
