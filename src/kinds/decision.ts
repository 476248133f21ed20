import type { ListAction } from "../lib/list/use-list-screen.ts"
import type { CommandInput } from "../lib/store/console-store.ts"

/**
 * A decision on a record of one kind (docs/architecture.md, "Layers"), declared once in the
 * kind's module (src/kinds/<kind>.ts): its area's screen, bulk, the palette and the triage desk
 * all name it. Its commands are the contract's calls (`callTo`), at the record's version as shown:
 * the store names the one they reach the server at.
 */
export interface Decision<Row> {
  /** `<kind>:<what>:<value>`, as the desk's machine names it ("scam-report:status:resolved"). */
  readonly id: string
  /** Its key on the area's screen and the desk; without one it is the palette's, a selection's and its record's buttons. */
  readonly key?: string
  /** The palette's words ("Set status Resolved"); a screen adds the record's title. */
  readonly name: string
  /** The area screen's hint for the key. */
  readonly hint: string
  /** When it applies (the contract's rules): a decision that changes nothing is not offered. */
  readonly when: (row: Row) => boolean
  /** A reason is asked first, where the desk asks one; it is kept where the kind keeps notes. */
  readonly asksReason: boolean
  /** The record is decided: a queue moves on (`z` brings it back). A priority, or back to New, is not. */
  readonly movesOn: boolean
  /** What a queue says when the key keeps the record current, if anything (a report back to New). */
  readonly stays?: (title: string) => string
  /** The commands, in order; `title`: the record as the screen names it, for the command's label. */
  readonly commands: (row: Row, said: { readonly title: string; readonly reason: string }) => ReadonlyArray<CommandInput>
}

/**
 * A decision as a list screen's row key, palette command and bulk form: `nameOf` names a row in
 * the palette; `decide` makes the decision on the rows it applies to (`when`, by default the
 * decision's own), the current row's or a selection's (`bulk`).
 */
export const decisionAction = <Row>(
  decision: Decision<Row>,
  {
    nameOf,
    decide,
    when = decision.when
  }: { readonly nameOf: (row: Row) => string; readonly decide: (rows: ReadonlyArray<Row>, bulk: boolean) => void; readonly when?: (row: Row) => boolean }
): ListAction<Row> => ({
  id: decision.id,
  ...(decision.key === undefined ? { key: undefined } : { key: decision.key, hint: decision.hint }),
  label: (row) => `${decision.name}: ${nameOf(row)}`,
  when,
  run: (row) => decide([row], false),
  bulk: {
    label: (rows) => `${decision.name}: ${rows.length} selected`,
    when: (rows) => rows.some(when),
    run: (rows) => decide(rows.filter(when), true)
  }
})
