import type { CallAs } from "../store/console-store.ts"
import { ANY_KIND, type StoreKind } from "../store/kinds.ts"

/**
 * A confirmed deletion on a list kept in the browser's store, as what the call is to the store
 * (./use-list-screen.ts, `Confirmation.removes`): the row goes at once, the command goes out after
 * the ones before it, a refusal puts it back and says why. Undefined for a call that removes
 * nothing, or a list the store does not keep.
 */
export const deletionAs = <Row>(
  kind: StoreKind | undefined,
  row: Row,
  idOf: (row: Row) => string,
  confirm: { readonly title: string; readonly subject: (row: Row) => string; readonly failed: string; readonly removes?: boolean }
): CallAs | undefined =>
  kind === undefined || kind === ANY_KIND || confirm.removes !== true
    ? undefined
    : {
        kind: typeof kind === "string" ? kind : String((row as Readonly<Record<string, unknown>>)[kind.field]),
        recordIds: [idOf(row)],
        effect: null,
        label: `${confirm.title}: ${confirm.subject(row)}`,
        failed: confirm.failed,
        quiet: false
      }
