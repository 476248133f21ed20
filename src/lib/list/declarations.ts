import type { Command } from "../commands.tsx"

/**
 * What a list screen declares beyond its rows, as data the list piece turns into commands, count
 * cards, the keys' hint and a selection (docs/architecture.md, "The list pattern"). Pure: held by
 * tests/unit/list-declarations.test.ts.
 */

/** A select filter in the toolbar, and the palette's commands for its values. */
export interface ListFilter {
  readonly name: string
  readonly label: string
  readonly allLabel: string
  readonly options: ReadonlyArray<readonly [value: string, label: string]>
  /** "Show pending communities" for each value (given its label), and "Show all communities". */
  readonly commands?: { readonly show: (label: string) => string; readonly all?: string }
}

/** A filter whose options are `values`, each shown as `labelOf` names it. */
export const filterOf = <V extends string>(
  name: string,
  label: string,
  allLabel: string,
  values: ReadonlyArray<V>,
  labelOf: (value: V) => string = (value) => value,
  commands?: ListFilter["commands"]
): ListFilter => ({ name, label, allLabel, options: values.map((value) => [value, labelOf(value)] as const), ...(commands === undefined ? {} : { commands }) })

/** The palette's filter commands: each value not in force, and "all" while the filter is set. */
export const filterCommands = (
  group: string,
  filters: ReadonlyArray<ListFilter>,
  now: Readonly<Record<string, string>>,
  set: (name: string, value: string) => void
): ReadonlyArray<Command> =>
  filters.flatMap(({ name, options, commands }) =>
    commands === undefined
      ? []
      : [
          ...options.map(([value, label]): Command => ({
            id: `${group}:filter:${name}:${value}`,
            label: commands.show(label),
            group,
            guard: () => now[name] !== value,
            run: () => set(name, value)
          })),
          ...(commands.all === undefined
            ? []
            : [{ id: `${group}:filter:${name}:all`, label: commands.all, group, guard: () => now[name] !== undefined, run: () => set(name, "") }])
        ]
  )

/** The count cards above a list: a total and one per value of a filter, each a button setting it. */
export interface ListCounts<P> {
  /** The cards' group, as a screen reader names it: "Listings by status". */
  readonly label: string
  /** The filter a card sets. */
  readonly filter: string
  /** The total card's label, then each value's card. */
  readonly total: string
  readonly cards: ReadonlyArray<readonly [value: string, label: string]>
  /** Each value's count (and `total`) in a page. */
  readonly of: (page: P) => Readonly<Record<string, number | undefined>>
  /** The palette's commands for the cards, when no select of the toolbar gives them. */
  readonly commands?: ListFilter["commands"]
}

/** The filters whose commands the palette offers: the toolbar's, and the count cards' when they have theirs. */
export const commandFilters = <P>(filters: ReadonlyArray<ListFilter> = [], counts?: ListCounts<P>): ReadonlyArray<ListFilter> =>
  counts?.commands === undefined
    ? filters
    : [...filters, { name: counts.filter, label: counts.label, allLabel: counts.total, options: counts.cards, commands: counts.commands }]

export interface CountCard {
  readonly key: string
  readonly label: string
  /** Unknown until the first page has arrived. */
  readonly value: number | undefined
  readonly active: boolean
  readonly onClick: () => void
}

export const countCards = <P>(counts: ListCounts<P>, page: P | undefined, now: string | undefined, set: (value: string) => void): ReadonlyArray<CountCard> => {
  const values = page === undefined ? {} : counts.of(page)
  return [["total", counts.total] as const, ...counts.cards].map(([key, label]) => {
    const value = key === "total" ? "" : key
    return { key, label, value: values[key], active: (now ?? "") === value, onClick: () => set(value) }
  })
}

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
 * ("1–4 set the status", "Enter or e edit"), in the order first declared.
 */
export const keysHint = (keys: ReadonlyArray<KeyHint>): string => {
  const groups = new Map<string, Array<string>>()
  for (const { key, hint } of keys) {
    const group = groups.get(hint) ?? []
    if (!group.includes(key)) group.push(key)
    groups.set(hint, group)
  }
  return [...groups].map(([hint, group]) => `${keysLabel(group)} ${hint}`).join(" · ")
}

/** The selection's words: the palette's, the toolbar's and the hint's. */
export const selectionTexts = {
  select: "Select",
  unselect: "Unselect",
  down: "Extend the selection down",
  up: "Extend the selection up",
  clear: "Clear selection",
  selected: (count: number) => `${count} selected`,
  hint: [
    { key: "x", hint: "select" },
    { key: "J", hint: "extend the selection" },
    { key: "K", hint: "extend the selection" },
    { key: "Escape", hint: "clear it" }
  ]
} as const

/** A selection of rows by id, and the row it extends from. */
export interface Selection {
  readonly ids: ReadonlySet<string>
  readonly anchor: string | null
}

export const noSelection: Selection = { ids: new Set(), anchor: null }

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
