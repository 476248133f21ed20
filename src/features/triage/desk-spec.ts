import type { TriageItem } from "../../../contract/triage.ts"
import { triageAreas, triagePriorities, waitingStatuses } from "../../../contract/triage-rules.ts"
import type { ListQuery } from "../../../machines/list.ts"
import { listTriage, type TriageDeskPage } from "../../api/triage.ts"
import { countsOf, filterOf, selectable } from "../../lib/list/declarations.ts"
import { groupRelated } from "./grouping.ts"
import { triageTexts as t } from "./texts.ts"

/** The desk as a list screen (docs/console.md, "The triage desk"): its query, filters and counts. */
export const deskSpec = {
  title: t.title,
  noun: t.noun,
  querySpec: {
    filters: { area: triageAreas, priority: triagePriorities, owner: ["me", "none"], view: ["snoozed"], order: ["newest"], group: ["related"] }
  },
  // Related reports together on the page, when asked: the server's order otherwise.
  arrange: (rows: ReadonlyArray<TriageItem>, query: ListQuery) => (query.filters.group === "related" ? groupRelated(rows) : rows),
  fetchPage: listTriage,
  searchable: false,
  // Each item is its area's record: it shows as the store has it, with this browser's waiting commands.
  store: { field: "area", kinds: triageAreas },
  idOf: (item: TriageItem) => item._id,
  // Decided elsewhere (a colleague, another tab): off the desk the moment the change arrives.
  stillListed: (item: TriageItem) => waitingStatuses[item.area].includes(item.status),
  selectable,
  filters: [
    filterOf("area", t.filters.area, t.allAreas, triageAreas, (area) => t.areas[area], { show: (label) => `Show ${label.toLowerCase()} on the desk` }),
    filterOf("priority", t.filters.priority, t.allPriorities, triagePriorities, (priority) => t.priorities[priority], {
      show: (label) => `Show ${label.toLowerCase()} priority items`
    }),
    filterOf("owner", t.filters.owner, t.anyOwner, ["me", "none"] as const, (owner) => t.owners[owner], {
      show: (label) => `Show ${label.toLowerCase()} items`
    }),
    filterOf("view", t.filters.view, t.views.waiting, ["snoozed"] as const, () => t.views.snoozed, {
      show: () => "Show snoozed items",
      all: "Show waiting items"
    }),
    filterOf("order", t.filters.order, t.orders.oldest, ["newest"] as const, () => t.orders.newest, {
      show: () => "Show newest first",
      all: "Show oldest first"
    }),
    filterOf("group", t.filters.group, t.groups.none, ["related"] as const, () => t.groups.related, {
      show: () => "Group related reports",
      all: "Show items one by one"
    })
  ],
  clearFilters: "Show everything waiting",
  counts: countsOf({
    label: t.countsLabel,
    filter: "area",
    total: t.total,
    cards: triageAreas.map((area) => [area, t.areas[area]] as const),
    of: (page: TriageDeskPage) => ({
      total: page.areaCounts.reduce((sum, count) => sum + count.count, 0),
      ...Object.fromEntries(page.areaCounts.map((count) => [count._id, count.count]))
    })
  })
}
