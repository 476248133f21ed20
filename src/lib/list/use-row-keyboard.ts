import { type KeyboardEvent, useEffect, useRef, useState } from "react"

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

/**
 * The rows' keyboard: j/k or the arrows move, Enter opens, `e` edits, Delete deletes. One row
 * is in the tab order; the focused row stays focused when the list reloads under it (same
 * place, or the last row if the list got shorter).
 */
export const useRowKeyboard = <Row, E extends HTMLElement = HTMLElement>(rows: ReadonlyArray<Row>, actions: RowActions<Row>) => {
  const [focused, setFocused] = useState<number | null>(null)
  const elements = useRef<Array<E | null>>([])
  const hadFocus = useRef(false)
  const focusRow = (index: number) => elements.current[Math.max(0, Math.min(rows.length - 1, index))]?.focus()

  // A reload that replaced the focused row's element left the focus on the page: put it back.
  useEffect(() => {
    if (!hadFocus.current || focused === null || rows.length === 0) return
    const active = document.activeElement
    if (active === null || active === document.body) focusRow(Math.min(focused, rows.length - 1))
  }, [rows])

  const onKeyDown = (event: KeyboardEvent<E>, index: number, row: Row) => {
    if (event.target !== event.currentTarget || event.ctrlKey || event.metaKey || event.altKey) return
    const byKey: Record<string, (() => void) | undefined> = {
      ArrowDown: () => focusRow(index + 1),
      j: () => focusRow(index + 1),
      ArrowUp: () => focusRow(index - 1),
      k: () => focusRow(index - 1),
      Enter: actions.open === undefined ? undefined : () => actions.open?.(row),
      e: actions.edit === undefined ? undefined : () => actions.edit?.(row),
      Delete: actions.remove === undefined ? undefined : () => actions.remove?.(row),
      ...Object.fromEntries(Object.entries(actions.keys ?? {}).map(([key, act]) => [key, () => act(row)]))
    }
    const byCode = actions.codes?.[`${event.shiftKey ? "Shift+" : ""}${event.code}`]
    const action = byCode === undefined ? byKey[event.key] : () => byCode(row)
    if (action !== undefined) {
      event.preventDefault()
      action()
    }
  }

  const rowProps = (index: number, row: Row): RowProps<E> => ({
    ref: (element) => void (elements.current[index] = element),
    tabIndex: index === Math.min(focused ?? 0, Math.max(0, rows.length - 1)) ? 0 : -1,
    "data-focused": focused === index,
    onFocus: () => {
      hadFocus.current = true
      setFocused(index)
    },
    onKeyDown: (event) => onKeyDown(event, index, row)
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
