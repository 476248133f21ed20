/**
 * A row this screen changed in place stays shown until the person moves off it, even when the
 * list read after the change no longer holds it (it left the filter). It goes back where it was
 * among its neighbours: before the first row that followed it and is still served (after the
 * last that preceded it, when none follows). Not at its old index: a reload that also drops rows
 * changed before it (a key typed ahead of the reload) would put it after the row that followed
 * it, and `j` would skip that row (docs/architecture.md, "Keys on a list").
 */
export interface KeptRow<Row> {
  readonly id: string
  readonly row: Row
  /** The ids of the rows shown after it when it was kept, nearest first. */
  readonly after: ReadonlyArray<string>
  /** The ids of the rows shown before it when it was kept, nearest first. */
  readonly before: ReadonlyArray<string>
}

/** Keeps `rows[index]` (undefined when there is no such row). */
export const keepRow = <Row>(rows: ReadonlyArray<Row>, idOf: (row: Row) => string, index: number): KeptRow<Row> | undefined => {
  const row = rows[index]
  if (row === undefined) return undefined
  return {
    id: idOf(row),
    row,
    after: rows.slice(index + 1).map(idOf),
    before: rows.slice(0, index).map(idOf).reverse()
  }
}

/** The rows served, with the kept row among them where it was. */
export const withKept = <Row>(served: ReadonlyArray<Row>, idOf: (row: Row) => string, kept: KeptRow<Row> | null): ReadonlyArray<Row> => {
  if (kept === null) return served
  const ids = served.map(idOf)
  if (ids.includes(kept.id)) return served
  const next = kept.after.map((id) => ids.indexOf(id)).find((at) => at >= 0)
  if (next !== undefined) return [...served.slice(0, next), kept.row, ...served.slice(next)]
  const previous = kept.before.map((id) => ids.indexOf(id)).find((at) => at >= 0)
  const at = previous === undefined ? 0 : previous + 1
  return [...served.slice(0, at), kept.row, ...served.slice(at)]
}
