import { useCallback, useEffect, useRef, useState } from "react"
import { failureOf } from "../../../contract/call-failure.ts"
import type { ConsoleStore } from "../../lib/store/console-store.ts"
import { currentStore } from "../../lib/store/handle.ts"

export interface Loaded<A> {
  readonly value: A | null
  readonly error: string | null
  readonly loading: boolean
  /** When the value shown was asked for (0: kept from an earlier visit, or none yet). */
  readonly askedAt: number
}

/**
 * Reads `load` now and when `reload` is called; keeps the last value through a
 * failure. A new `load` (memoized by the caller on what it reads) is a new reading. With the
 * browser's store open, the value is kept there under `keptAs`, and the one kept from the last
 * visit shows while the server is asked.
 */
export const useLoaded = <A>(load: () => Promise<A>, store?: ConsoleStore, keptAs?: string): Loaded<A> & { readonly reload: () => void } => {
  const [state, setState] = useState<Loaded<A>>({ value: null, error: null, loading: true, askedAt: 0 })
  const latest = useRef(0)
  const reload = useCallback(() => {
    const request = ++latest.current
    const askedAt = Date.now()
    setState((current) => ({ ...current, loading: true }))
    load().then(
      (value) => {
        if (request !== latest.current) return
        setState({ value, error: null, loading: false, askedAt })
        if (keptAs !== undefined) currentStore()?.keepPage(KEPT_KIND, keptAs, [], value)
      },
      (error: unknown) => request === latest.current && setState((current) => ({ ...current, error: failureOf(error).message, loading: false }))
    )
  }, [load, keptAs])
  useEffect(() => {
    if (store === undefined || keptAs === undefined) return
    let gone = false
    void store.keptPage(keptAs).then((kept) => {
      if (!gone && kept !== undefined) setState((current) => (current.value === null ? { ...current, value: kept.extra as A } : current))
    })
    return () => void (gone = true)
  }, [store, keptAs])
  useEffect(() => reload(), [reload])
  return { ...state, reload }
}

/** The store's kind for what the dashboard keeps (its figures and recent activity; no records). */
const KEPT_KIND = "dashboard"
