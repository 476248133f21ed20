import type { Command } from "../commands.tsx"
import type { RowAction } from "./use-row-focus.ts"

/**
 * What a list screen declares beyond its rows, made into palette commands, count cards, the keys'
 * hint and a selection (docs/architecture.md, "The list pattern"). The list piece takes them by
 * type only: a screen that declares none (the first screen's directory) loads none of this code.
 * Pure: held by tests/unit/list-declarations.test.ts.
 */

/** The palette's commands a declaration makes, given the screen's group, the filters in force and how to set one. */
export type CommandsOf = (group: string, now: Readonly<Record<string, string>>, set: (name: string, value: string) => void) => ReadonlyArray<Command>

/** A select filter in the toolbar, and the palette's commands for its values. */
export interface ListFilter {
  readonly name: string
  readonly label: string
  readonly allLabel: string
  readonly options: ReadonlyArray<readonly [value: string, label: string]>
  /** Its palette commands: "Show pending communities" for each value, and "Show all communities". */
  readonly commands?: CommandsOf
}

/** What a filter's commands say: "Show {label}" for each value (given its label), and the one that clears it. */
export interface FilterWords {
  readonly show: (label: string) => string
  readonly all?: string
}

/** A filter whose options are `values`, each shown as `labelOf` names it. */
export const filterOf = <V extends string>(
  name: string,
  label: string,
  allLabel: string,
  values: ReadonlyArray<V>,
  labelOf: (value: V) => string = (value) => value,
  words?: FilterWords
): ListFilter => {
  const options = values.map((value) => [value, labelOf(value)] as const)
  return { name, label, allLabel, options, ...(words === undefined ? {} : { commands: filterCommands(name, options, words) }) }
}

/** A filter's palette commands: each value not in force, and "all" while the filter is set. */
export const filterCommands =
  (name: string, options: ReadonlyArray<readonly [value: string, label: string]>, words: FilterWords): CommandsOf =>
  (group, now, set) => [
    ...options.map(([value, label]): Command => ({
      id: `${group}:filter:${name}:${value}`,
      label: words.show(label),
      group,
      guard: () => now[name] !== value,
      run: () => set(name, value)
    })),
    ...(words.all === undefined
      ? []
      : [{ id: `${group}:filter:${name}:all`, label: words.all, group, guard: () => now[name] !== undefined, run: () => set(name, "") }])
  ]

/** The count cards above a list: a total and one per value of a filter, each a button setting it. */
export interface ListCounts<P> {
  /** The cards' group, as a screen reader names it: "Listings by status". */
  readonly label: string
  readonly cards: (
    page: P | undefined,
    now: Readonly<Record<string, string>>,
    set: (name: string, value: string) => void,
    /** Rows the page's counts don't know moved yet (a waiting command, a change just arrived): from one value to another. */
    moved?: ReadonlyArray<readonly [from: string, to: string]>
  ) => ReadonlyArray<CountCard>
  /** The rows' field the cards count by. */
  readonly field?: string
  /** The palette's commands for the cards, when no select of the toolbar gives them. */
  readonly commands?: CommandsOf
}

export interface CountCard {
  readonly key: string
  readonly label: string
  /** Unknown until the first page has arrived. */
  readonly value: number | undefined
  readonly active: boolean
  readonly onClick: () => void
}

/** Count cards for the values of `filter`, after a total; each value's count (and `total`) read from a page by `of`. */
export const countsOf = <P>(counts: {
  readonly label: string
  readonly filter: string
  readonly total: string
  readonly cards: ReadonlyArray<readonly [value: string, label: string]>
  readonly of: (page: P) => Readonly<Record<string, number | undefined>>
  readonly commands?: FilterWords
}): ListCounts<P> => ({
  label: counts.label,
  field: counts.filter,
  cards: (page, now, set, moved = []) => {
    const values: Record<string, number | undefined> = page === undefined ? {} : { ...counts.of(page) }
    for (const [from, to] of moved) {
      if (values[from] !== undefined) values[from] = Math.max(0, (values[from] ?? 0) - 1)
      if (values[to] !== undefined) values[to] = (values[to] ?? 0) + 1
    }
    return [["total", counts.total] as const, ...counts.cards].map(([key, label]) => {
      const value = key === "total" ? "" : key
      return { key, label, value: values[key], active: (now[counts.filter] ?? "") === value, onClick: () => set(counts.filter, value) }
    })
  },
  ...(counts.commands === undefined ? {} : { commands: filterCommands(counts.filter, counts.cards, counts.commands) })
})

/** A key and what it does, for the hint under a list. */
export interface KeyHint {
  readonly key: string
  readonly hint: string
}

/** A key as the hint writes it: "shift+1" and "J" with Shift, arrows as arrows. */
export const keyLabel = (key: string): string =>
  key.startsWith("shift+")
    ? `Shift+${key.slice(6)}`
    : /^[A-Z]$/.test(key)
      ? `Shift+${key}`
      : (({ ArrowDown: "↓", ArrowUp: "↑" } as Readonly<Record<string, string>>)[key] ?? key)

/** Keys that do the same thing, in one go: "1–5", "Shift+J/K", "j/k", "Enter or e". */
const keysLabel = (keys: ReadonlyArray<string>): string => {
  const labels = keys.map(keyLabel)
  const shift = labels.every((label) => label.startsWith("Shift+")) ? "Shift+" : ""
  const bare = labels.map((label) => label.slice(shift.length))
  const digits = bare.map(Number)
  if (bare.length > 2 && bare.every((label, at) => /^\d$/.test(label) && digits[at] === (digits[0] ?? 0) + at)) return `${shift}${bare[0]}–${bare.at(-1)}`
  return bare.every((label) => label.length === 1) ? `${shift}${bare.join("/")}` : labels.join(" or ")
}

/**
 * The line under a list, written from the keys it has: keys with the same words go together
 * ("1–4 set the status", "Enter or e edit"), in the order first declared, after the moves.
 */
export const keysHint = (keys: ReadonlyArray<KeyHint>): string => {
  const groups = new Map<string, Array<string>>()
  for (const { key, hint } of keys) {
    const group = groups.get(hint) ?? []
    if (!group.includes(key)) group.push(key)
    groups.set(hint, group)
  }
  return ["j/k or ↑/↓ move", ...[...groups].map(([hint, group]) => `${keysLabel(group)} ${hint}`)].join(" · ")
}

/** A selection of rows by id, and the row it extends from. */
export interface Selection {
  readonly ids: ReadonlySet<string>
  readonly anchor: string | null
}

/** `x`: the row in or out of the selection, and the anchor for Shift+J/K. */
export const toggled = (selection: Selection, id: string): Selection => {
  const ids = new Set(selection.ids)
  if (!ids.delete(id)) ids.add(id)
  return { ids, anchor: id }
}

/**
 * Shift+J/K: every row from the anchor to the one `step` away from `id` is selected, and that one
 * is where the keys go. The anchor is a record, not a position: a reload between `x` and Shift+J
 * (a pending queue loses the cards just approved) moves the rows under it.
 */
export const extended = (
  selection: Selection,
  ids: ReadonlyArray<string>,
  id: string,
  step: number
): { readonly selection: Selection; readonly to?: string } => {
  const index = ids.indexOf(id)
  const anchored = selection.anchor === null ? -1 : ids.indexOf(selection.anchor)
  const start = anchored >= 0 ? anchored : index
  const target = Math.max(0, Math.min(ids.length - 1, index + step))
  const [low, high] = start <= target ? [start, target] : [target, start]
  const to = ids[target]
  return { selection: { ids: new Set(ids.slice(low, high + 1)), anchor: ids[start] ?? null }, ...(to === undefined ? {} : { to }) }
}

/** The selection's words: the palette's, the toolbar's and the hint's. */
export const selectionTexts = {
  select: "Select",
  unselect: "Unselect",
  down: "Extend the selection down",
  up: "Extend the selection up",
  clear: "Clear selection",
  selected: (count: number) => `${count} selected`
} as const

/** What a selection adds to a list: its keys (x, Shift+J/K, Escape), their hint, the rows selected and the toolbar's words. */
export interface SelectionView<Row> {
  readonly rows: ReadonlyArray<Row>
  readonly actions: ReadonlyArray<RowAction<Row>>
  readonly commands: ReadonlyArray<Command>
  readonly keys: ReadonlyArray<KeyHint>
  readonly words: { readonly selected: string; readonly clear: string }
}

/** A list's selection, made each render from its state (held by the list piece). */
export type Selectable = <Row>(state: {
  readonly selection: Selection
  readonly set: (change: (now: Selection) => Selection) => void
  readonly rows: ReadonlyArray<Row>
  readonly idOf: (row: Row) => string
  /** Makes a row current: Shift+J/K move the keys with the selection. */
  readonly pick: (id: string) => void
  /** The current row's id as the keys left it, ahead of the render that shows it. */
  readonly current?: () => string | null
  readonly group: string
}) => SelectionView<Row>

/** `selectable` in a list's spec: rows are selected with `x` and Shift+J/K, for the actions that take a selection (`bulk`). */
export const selectable: Selectable = ({ selection, set, rows, idOf, pick, current, group }) => {
  const ids = rows.map(idOf)
  // A key acts on the row current when it arrives (a Shift+J right after another moved it).
  const idNow = (row: (typeof rows)[number]) => current?.() ?? idOf(row)
  const extend = (row: (typeof rows)[number], step: number) => {
    let to: string | undefined
    set((now) => {
      const next = extended(now, ids, idNow(row), step)
      to = next.to
      return next.selection
    })
    if (to !== undefined) pick(to)
  }
  return {
    rows: rows.filter((row) => selection.ids.has(idOf(row))),
    actions: [
      {
        id: "select",
        key: "x",
        label: (row) => (selection.ids.has(idOf(row)) ? selectionTexts.unselect : selectionTexts.select),
        run: (row) => set((now) => toggled(now, idNow(row)))
      },
      { id: "extend-down", key: "J", inPalette: false, label: () => selectionTexts.down, run: (row) => extend(row, 1) },
      { id: "extend-up", key: "K", inPalette: false, label: () => selectionTexts.up, run: (row) => extend(row, -1) }
    ],
    commands:
      selection.ids.size === 0
        ? []
        : [
            {
              id: `${group}:clear-selection`,
              label: selectionTexts.clear,
              group,
              shortcut: ["Escape"],
              run: () => set(() => ({ ids: new Set(), anchor: null }))
            }
          ],
    keys: [
      { key: "x", hint: "select" },
      { key: "J", hint: "extend the selection" },
      { key: "K", hint: "extend the selection" },
      { key: "Escape", hint: "clear it" }
    ],
    words: { selected: selectionTexts.selected(selection.ids.size), clear: selectionTexts.clear }
  }
}
