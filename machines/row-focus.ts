import { assign, setup } from "xstate"

/**
 * The current row of a list screen (docs/architecture.md, "Keys on a list"): which record the
 * list keys act on, and whether the keyboard is the rows' at all.
 *
 * - `rows`: the list keys (j/k, Enter, e, Delete and the screen's own) act on the current row.
 *   A screen starts here, with the first row current, or, back from another screen, the row that
 *   was current when it left.
 * - `typing`: the cursor is in the search field or a filter; keys type there. Escape (or leaving
 *   the field for the page) gives the keyboard back to the rows.
 * - `away`: a dialog or the palette has the keyboard; closing it gives it back where it was
 *   (the rows, or the search the palette was opened from).
 *
 * The current record is followed by its id when the rows change under it (a reload, a live
 * change, a page): it stays current while it is shown, else the row that took its place is.
 * A key that changes a record never moves the current row by itself; only a screen whose one key
 * is the whole decision on a record (the moderation queues) moves on, with `PICK`.
 */
export interface RowFocusContext {
  /** The ids of the rows shown, in order. */
  readonly ids: ReadonlyArray<string>
  /** The current record, or null while no row is shown. */
  readonly currentId: string | null
  /** Where the current row was among `ids`, so the row that takes its place can follow it. */
  readonly index: number
  /** Where the keyboard was when a dialog took it: closing the dialog gives it back there. */
  readonly before: "rows" | "typing"
}

export type RowFocusEvent =
  | { readonly type: "SHOW"; readonly ids: ReadonlyArray<string> }
  | { readonly type: "NEXT" }
  | { readonly type: "PREVIOUS" }
  | { readonly type: "PICK"; readonly id: string }
  | { readonly type: "TYPE" }
  | { readonly type: "LEAVE" }
  | { readonly type: "OPEN" }
  | { readonly type: "CLOSE" }

const at = (ids: ReadonlyArray<string>, index: number) => {
  const clamped = Math.max(0, Math.min(ids.length - 1, index))
  return { currentId: ids[clamped] ?? null, index: clamped }
}

/**
 * The row current after the rows changed: the same record if still shown, else the one in its
 * place. No rows (a list still loading, a search that finds nothing) keep the current record for
 * when rows come back: back on a screen, its list loads empty first.
 */
export const following = (context: Pick<RowFocusContext, "currentId" | "index">, ids: ReadonlyArray<string>) => {
  if (ids.length === 0) return { ids, currentId: context.currentId, index: context.index }
  const kept = ids.findIndex((id) => id === context.currentId)
  return { ids, ...at(ids, kept >= 0 ? kept : context.index) }
}

export const rowFocusMachine = setup({
  types: {} as { context: RowFocusContext; events: RowFocusEvent; input: { readonly currentId?: string | null | undefined } },
  guards: {
    wasTyping: ({ context }) => context.before === "typing"
  },
  actions: {
    follow: assign(({ context }, params: { readonly ids: ReadonlyArray<string> }) => following(context, params.ids)),
    next: assign(({ context }) => at(context.ids, context.index + 1)),
    previous: assign(({ context }) => at(context.ids, context.index - 1)),
    leftRows: assign({ before: "rows" as const }),
    leftTyping: assign({ before: "typing" as const }),
    pick: assign(({ context }, params: { readonly id: string }) => {
      const index = context.ids.indexOf(params.id)
      return index < 0 ? context : at(context.ids, index)
    })
  }
}).createMachine({
  id: "rowFocus",
  // Back from another screen, the record that was current there is current again once shown.
  context: ({ input }) => ({ ids: [], currentId: input.currentId ?? null, index: 0, before: "rows" }),
  initial: "keys",
  on: {
    SHOW: { actions: { type: "follow", params: ({ event }) => ({ ids: event.ids }) } },
    PICK: { target: ".keys.rows", actions: { type: "pick", params: ({ event }) => ({ id: event.id }) } }
  },
  states: {
    /** The screen has the keyboard: on its rows, or in its search or a filter. */
    keys: {
      initial: "rows",
      states: {
        rows: {
          on: {
            NEXT: { actions: "next" },
            PREVIOUS: { actions: "previous" },
            TYPE: "typing",
            OPEN: { target: "#rowFocus.away", actions: "leftRows" }
          }
        },
        typing: {
          on: {
            LEAVE: "rows",
            OPEN: { target: "#rowFocus.away", actions: "leftTyping" }
          }
        }
      }
    },
    /** A dialog or the palette: closing it gives the keyboard back where it was. */
    away: {
      on: {
        CLOSE: [{ guard: "wasTyping", target: "keys.typing" }, { target: "keys.rows" }]
      }
    }
  }
})

/** Whether the list keys act on the current row now. */
export const keysOnRows = (snapshot: { readonly matches: (state: { readonly keys: "rows" }) => boolean }) => snapshot.matches({ keys: "rows" })
