import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useMemo, useRef } from "react"
import { rowFocusMachine } from "../../../machines/row-focus.ts"
import type { Command } from "../commands.tsx"

/**
 * One thing a person can do to the current row: a command the palette offers for it, and its key
 * (docs/architecture.md, "Keys on a list"). Keys go through the one key dispatcher
 * (src/lib/commands.tsx), so they act wherever the focus is on the page, sidebar included, and a
 * `g` sequence is never taken for a row key.
 */
export interface RowAction<Row> {
  readonly id: string
  /** Its shortcut, as commands name keys: "a", "Enter", "Delete", "shift+1". */
  readonly key?: string
  readonly label: (row: Row) => string
  readonly run: (row: Row) => void
  /** Offered only for rows this accepts (Approve on a pending card). A screen gives its actions afresh each render. */
  readonly when?: (row: Row) => boolean
  /** False for keys that crowd no palette. */
  readonly inPalette?: boolean
  /** Set when the person's role may not do this: its key says so in one line (`Command.refused`). */
  readonly refused?: string
}

export interface RowProps<E extends HTMLElement> {
  readonly ref: (element: E | null) => void
  readonly tabIndex: number
  readonly "data-current": boolean
  readonly "aria-current": boolean
  readonly onFocus: () => void
  readonly onClick: () => void
}

/**
 * The row each history entry had current, for back and forward: kept in memory by an id the
 * entry carries in its state (given once per entry), so a `j` writes nothing to the history; a
 * page being unloaded writes it into the entry itself, for a reload.
 */
const ENTRY = "listEntry"
const REMEMBERED = "currentRow"
const rowsByEntry = new Map<string, string>()
const stateOf = (): Record<string, unknown> => {
  const state: unknown = history.state
  return typeof state === "object" && state !== null ? (state as Record<string, unknown>) : {}
}
const entryKey = (): string => {
  const key = stateOf()[ENTRY]
  if (typeof key === "string") return key
  const made = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`
  history.replaceState({ ...stateOf(), [ENTRY]: made }, "")
  return made
}
const remembered = (): string | null => {
  const state = stateOf()
  const inMemory = typeof state[ENTRY] === "string" ? rowsByEntry.get(state[ENTRY]) : undefined
  return inMemory ?? (typeof state[REMEMBERED] === "string" ? state[REMEMBERED] : null)
}
const remember = (id: string) => void rowsByEntry.set(entryKey(), id)
const rememberForReload = (id: string | null) => {
  if (id !== null) history.replaceState({ ...stateOf(), [REMEMBERED]: id }, "")
}

const isEditable = (element: Element | null): boolean =>
  element instanceof HTMLElement && (element.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(element.tagName))
const inDialog = (element: Element | null): boolean => element?.closest("[role=dialog], [role=alertdialog], dialog[open]") != null
/** Where the focus may be taken from for the current row: nowhere a person is typing or deciding. */
const mayTakeFocus = (active: Element | null) => !isEditable(active) && !inDialog(active)
/**
 * A dialog still open (not one closing): when a dialog over another one closes (a record's
 * history over its modal), the focus passes through the page on its way back to the one below,
 * and the rows must not take it.
 */
const dialogOpen = () => document.querySelector("[role=dialog][data-state=open], [role=alertdialog][data-state=open], dialog[open]") !== null

/**
 * The current row of a list (machines/row-focus.ts): the first row on arrival, the one a history
 * entry had on back and forward, followed by its id through reloads, live changes and pages;
 * `j`/`k` (and the arrows) move it, `s` puts the cursor in the search and Escape there gives the
 * keyboard back to the rows. The row carries the focus whenever nobody is typing or in a dialog,
 * so it is announced and scrolled to; its keys are commands and work wherever the focus is.
 */
export const useRowFocus = <Row, E extends HTMLElement = HTMLElement>(options: {
  readonly rows: ReadonlyArray<Row>
  readonly idOf: (row: Row) => string
  /** The palette's group for the row commands: the screen's title. */
  readonly group: string
  /** What the rows are, for "Search {noun}". */
  readonly noun: string
  readonly actions: ReadonlyArray<RowAction<Row>>
  /** False while a dialog or form of the screen holds the keyboard: row keys then do nothing. */
  readonly idle: boolean
  /** The search field, for `s` and Escape. */
  readonly search?: { readonly current: HTMLInputElement | null }
}) => {
  const { rows, idOf, group, noun, actions, idle, search } = options
  const focus = useActorRef(rowFocusMachine, { input: { currentId: remembered() } })
  const currentId = useSelector(focus, (snapshot) => snapshot.context.currentId)
  const onRows = useSelector(focus, (snapshot) => snapshot.matches({ keys: "rows" }))
  const elements = useRef<Array<E | null>>([])
  const ids = useMemo(() => rows.map(idOf), [rows, idOf])
  const currentIndex = currentId === null ? -1 : ids.indexOf(currentId)
  const current = currentIndex < 0 ? undefined : rows[currentIndex]

  // Why the current row should take the focus at its next render: the screen was arrived at,
  // the person moved, or the rows were replaced while one of them had the focus.
  const wanted = useRef<"arrival" | "moved" | "kept" | null>("arrival")
  const restoring = useRef<string | null>(null)
  useEffect(() => {
    const hadFocus = elements.current.some((element) => element !== null && element === document.activeElement) || document.activeElement === document.body
    if (wanted.current === null && hadFocus) wanted.current = "kept"
    focus.send({ type: "SHOW", ids })
    if (restoring.current !== null && ids.includes(restoring.current)) {
      focus.send({ type: "PICK", id: restoring.current })
      restoring.current = null
    }
  }, [ids, focus])

  // A reload: the row goes into the entry itself (memory does not survive it).
  const leaving = useRef(currentId)
  leaving.current = currentId
  useEffect(() => {
    const now = () => rememberForReload(leaving.current)
    window.addEventListener("pagehide", now)
    return () => window.removeEventListener("pagehide", now)
  }, [])

  // Back or forward to another entry of this screen: its row is current again once shown.
  useEffect(() => {
    const onPop = () => {
      restoring.current = remembered()
      wanted.current = "arrival"
    }
    window.addEventListener("popstate", onPop)
    return () => window.removeEventListener("popstate", onPop)
  }, [])

  useEffect(() => {
    if (currentId !== null) remember(currentId)
    const reason = wanted.current
    const element = currentIndex < 0 ? null : elements.current[currentIndex]
    if (reason === null || element === null || element === undefined || !onRows || dialogOpen()) return
    wanted.current = null
    if (reason === "moved" || mayTakeFocus(document.activeElement)) element.focus()
  }, [currentId, currentIndex, onRows, rows])

  // Where the focus goes tells the machine who has the keyboard: into a dialog, away; back from
  // one, where it was; into a field, typing; to the page itself, back to the rows.
  useEffect(() => {
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target instanceof Element ? event.target : null
      if (inDialog(target)) return focus.send({ type: "OPEN" })
      if (focus.getSnapshot().matches("away")) focus.send({ type: "CLOSE" })
      if (isEditable(target)) focus.send({ type: "TYPE" })
    }
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget !== null) return
      queueMicrotask(() => {
        if (document.activeElement !== document.body && document.activeElement !== null) return
        if (dialogOpen()) return
        const state = focus.getSnapshot()
        if (state.matches({ keys: "rows" })) return
        if (state.matches("away")) focus.send({ type: "CLOSE" })
        if (focus.getSnapshot().matches({ keys: "typing" })) focus.send({ type: "LEAVE" })
        wanted.current = "moved"
      })
    }
    document.addEventListener("focusin", onFocusIn)
    document.addEventListener("focusout", onFocusOut)
    return () => {
      document.removeEventListener("focusin", onFocusIn)
      document.removeEventListener("focusout", onFocusOut)
    }
  }, [focus])

  const latest = useRef({ ids })
  latest.current = { ids }
  const handlers = useRef<Array<{ ref: (element: E | null) => void; onFocus: () => void }>>([])
  const handlersOf = (index: number) =>
    (handlers.current[index] ??= {
      ref: (element) => void (elements.current[index] = element),
      onFocus: () => {
        const id = latest.current.ids[index]
        if (id !== undefined) focus.send({ type: "PICK", id })
      }
    })
  const rowProps = (index: number): RowProps<E> => {
    const isCurrent = index === currentIndex
    return {
      ...handlersOf(index),
      onClick: handlersOf(index).onFocus,
      // One row is in the tab order: the current one (the first before any is).
      tabIndex: isCurrent || (currentIndex < 0 && index === 0) ? 0 : -1,
      "data-current": isCurrent,
      "aria-current": isCurrent
    }
  }

  /** Makes `id` current (a screen moving on after a change, "Find address" landing on a row). */
  const pick = useCallback(
    (id: string) => {
      wanted.current = "moved"
      focus.send({ type: "PICK", id })
    },
    [focus]
  )
  /** Escape in the search field: the rows have the keyboard again, on the current row. */
  const backToRows = useCallback(() => {
    wanted.current = "moved"
    focus.send({ type: "LEAVE" })
    const index = currentIndex < 0 ? 0 : currentIndex
    elements.current[index]?.focus()
  }, [focus, currentIndex])

  // Made afresh each render, from the actions as the screen gives them: the list piece registers
  // them as commands that are made again only when what they show changes, each running the newest.
  const guard = () => idle
  const move = (type: "NEXT" | "PREVIOUS") => () => {
    wanted.current = "moved"
    focus.send({ type })
  }
  const moves = (label: string, type: "NEXT" | "PREVIOUS", keys: ReadonlyArray<string>) =>
    keys.map((key): Command => ({ id: `${group}:row:${type}:${key}`, label, group, shortcut: [key], inPalette: false, guard, run: move(type) }))
  const commands: ReadonlyArray<Command> = [
    ...(current === undefined
      ? []
      : actions
          .filter((action) => action.when === undefined || action.when(current))
          .map((action): Command => ({
            id: `${group}:${action.id}`,
            label: action.label(current),
            group,
            ...(action.key === undefined ? {} : { shortcut: [action.key] }),
            ...(action.inPalette === false ? { inPalette: false } : {}),
            ...(action.refused === undefined ? {} : { refused: action.refused }),
            onCurrent: true,
            guard,
            run: () => action.run(current)
          }))),
    ...(rows.length === 0 ? [] : [...moves("Next row", "NEXT", ["j", "ArrowDown"]), ...moves("Previous row", "PREVIOUS", ["k", "ArrowUp"])]),
    ...(search === undefined ? [] : [{ id: `${group}:search`, label: `Search ${noun}`, group, shortcut: ["s"], guard, run: () => search.current?.focus() }])
  ]

  /** The current row's id as the machine has it now: keys pressed before the next render act on it. */
  const currentNow = useCallback(() => focus.getSnapshot().context.currentId, [focus])
  return {
    /** The row the list keys act on. */
    current,
    currentNow,
    currentIndex,
    rowProps,
    pick,
    backToRows,
    /** The row commands (with their keys), moving, and `s`, made each render: the list piece registers them with the screen's. */
    commands,
    /** The machine, for tests and the hint: who has the keyboard. */
    keysOnRows: onRows
  }
}
