import type { ListPage } from "../../machines/list.ts"

/** A list the server answers whole (a few dozen rows at most): one page. */
export const onePage = <Row>(rows: ReadonlyArray<Row>): ListPage<Row> => ({ rows, pagination: { page: 1, limit: rows.length, total: rows.length, pages: 1 } })
