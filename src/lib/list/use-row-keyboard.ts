import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from "react"

export interface RowActions<Row> {
  /** Enter. */
  readonly open?: (row: Row) => void
  /** `e`. */
  readonly edit?: (row: Row) => void
  /** Delete. */
  readonly remove?: (row: Row) => void
  /** Further single keys of the screen, e.g. a status per key. */
  readonly keys?: Readonly<Record<string, (row: Row) => void>>
  /**
   * Keys by their place on the keyboard (`event.code`), for Shift with a digit, whose
   * `event.key` depends on the layout: "Shift+Digit1".
   */
  readonly codes?: Readonly<Record<string, (row: Row) => void>>
}

export interface RowProps<E extends HTMLElement> {
  readonly ref: (element: E | null) => void
  readonly tabIndex: number
  readonly "data-focused": boolean
  readonly onFocus: () => void
  readonly onKeyDown: (event: KeyboardEvent<E>) => void
}

interface RowHandlers<E extends HTMLElement> {
  readonly ref: (element: E | null) => void
  readonly onFocus: () => void
  readonly onKeyDown: (event: KeyboardEvent<E>) => void
}

/**
 * The rows' keyboard: j/k or the arrows move, Enter opens, `e` edits, Delete deletes. One row
 * is in the tab order; the focused row stays focused when the list reloads under it (same
 * place, or the last row if the list got shorter). A row's handlers are the same functions from
 * one render to the next (they read the latest rows and actions), so a memoised row re-renders
 * only when its record, its tab stop or its focus changed.
 */
export const useRowKeyboard = <Row, E extends HTMLElement = HTMLElement>(rows: ReadonlyArray<Row>, actions: RowActions<Row>) => {
  const [focused, setFocused] = useState<number | null>(null)
  const elements = useRef<Array<E | null>>([])
  const hadFocus = useRef(false)
  const latest = useRef({ rows, actions })
  latest.current = { rows, actions }
  const focusRow = useCallback((index: number) =>
    elements.current[Math.max(0, Math.min(latest.current.rows.length - 1, index))]?.focus(), [])

  // A reload that replaced the focused row's element left the focus on the page: put it back.
  useEffect(() => {
    if (!hadFocus.current || focused === null || rows.length === 0) return
    const active = document.activeElement
    if (active === null || active === document.body) focusRow(Math.min(focused, rows.length - 1))
  }, [rows])

  const handlers = useRef<Array<RowHandlers<E>>>([])
  const handlersOf = (index: number): RowHandlers<E> => (handlers.current[index] ??= {
    ref: (element) => void (elements.current[index] = element),
    onFocus: () => {
      hadFocus.current = true
      setFocused(index)
    },
    onKeyDown: (event) => {
      const row = latest.current.rows[index]
      const act = latest.current.actions
      if (row === undefined || event.target !== event.currentTarget || event.ctrlKey || event.metaKey || event.altKey) return
      const byKey: Record<string, (() => void) | undefined> = {
        ArrowDown: () => focusRow(index + 1),
        j: () => focusRow(index + 1),
        ArrowUp: () => focusRow(index - 1),
        k: () => focusRow(index - 1),
        Enter: act.open === undefined ? undefined : () => act.open?.(row),
        e: act.edit === undefined ? undefined : () => act.edit?.(row),
        Delete: act.remove === undefined ? undefined : () => act.remove?.(row),
        ...Object.fromEntries(Object.entries(act.keys ?? {}).map(([key, run]) => [key, () => run(row)]))
      }
      const byCode = act.codes?.[`${event.shiftKey ? "Shift+" : ""}${event.code}`]
      const action = byCode === undefined ? byKey[event.key] : () => byCode(row)
      if (action !== undefined) {
        event.preventDefault()
        action()
      }
    }
  })

  const rowProps = (index: number): RowProps<E> => ({
    ...handlersOf(index),
    tabIndex: index === Math.min(focused ?? 0, Math.max(0, rows.length - 1)) ? 0 : -1,
    "data-focused": focused === index
  })

  return {
    /** The row that has (or last had) the keyboard focus. */
    focusedRow: focused === null ? undefined : rows[focused],
    focusRow,
    rowProps,
    /** Leaving the list (a click elsewhere) stops the focus from being put back on reload. */
    onBlurList: () => void (hadFocus.current = false)
  }
}
