import type { TriageItem, TriageOwnerEntry, TriagePage } from "../../contract/triage.ts"
import type { TriageArea, TriagePriority } from "../../contract/triage-rules.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { CommandInput } from "../lib/store/console-store.ts"
import { callTo } from "./endpoints.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

export interface TriageDeskPage extends ListPage<TriageItem> {
  readonly areaCounts: TriagePage["areaCounts"]
  readonly snoozed: number
}

/** The desk's filters as the API takes them; a filter not set is the API's default. */
const filtersOf = (q: ListQuery) => ({
  ...(q.filters.area === undefined ? {} : { area: q.filters.area as TriageArea }),
  ...(q.filters.priority === undefined ? {} : { priority: q.filters.priority as TriagePriority }),
  ...(q.filters.owner === undefined ? {} : { owner: q.filters.owner }),
  ...(q.filters.view === "snoozed" ? { view: "snoozed" as const } : {}),
  ...(q.filters.order === "newest" ? { order: "newest" as const } : {})
})

/** A page of the desk (20 items) with the waiting count per area and the number snoozed. */
export const listTriage = async (q: ListQuery): Promise<TriageDeskPage> => {
  const { callListApi } = await api()
  const answer = await callListApi((client) => client.triage.desk({ query: { ...filtersOf(q), ...(q.page > 1 ? { page: q.page } : {}) } }))
  return { rows: answer.data.items, pagination: answer.data.pagination, areaCounts: answer.data.areaCounts, snoozed: answer.data.snoozed }
}

/** Everyone who may own items, with the items waiting on each, and on nobody. */
export const listOwners = async (): Promise<{ readonly owners: ReadonlyArray<TriageOwnerEntry>; readonly unowned: number }> => {
  const { callListApi } = await api()
  return (await callListApi((client) => client.triage.owners())).data
}

/** One change the desk makes itself, as the API takes it. */
export type DeskChange =
  | { readonly owner: string | null }
  | { readonly snoozedUntil: string | null }
  | { readonly duplicateOf: string; readonly reason?: string; readonly status: string }

/**
 * An owner, a snooze or a duplicate as a command (docs/architecture.md, "The browser's store"):
 * on the item's own record kind, naming the version the person saw after their own changes still
 * on their way; shown at once.
 */
export const deskChangeCommand = (
  item: TriageItem,
  change: DeskChange,
  version: number,
  words: { readonly label: string; readonly failed: string }
): CommandInput => {
  const { status, ...body } = "status" in change ? change : { ...change, status: undefined }
  const effect =
    "owner" in change
      ? { ownerId: change.owner }
      : "snoozedUntil" in change
        ? { snoozedUntil: change.snoozedUntil }
        : { status, duplicateOf: change.duplicateOf, snoozedUntil: null }
  return {
    kind: item.area,
    recordIds: [item._id],
    ...callTo("triageChange", { area: item.area, id: item._id }),
    body: { ...body, version },
    effect,
    answer: "data.item",
    ...words
  }
}
