import type { ActivityEntry, Analytics, AnalyticsPeriod } from "../../contract/activity.ts"
import type { Pagination } from "../../contract/common.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { CsvFile } from "./client.ts"
import activityPage from "virtual:answer-schemas/activityPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { paths } from "virtual:answer-schemas"
import { withParams } from "./list-paths.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

export const fetchAnalytics = async (period: AnalyticsPeriod): Promise<Analytics> => {
  const { callApi } = await api()
  return (await callApi((client) => client.analytics.get({ query: { period } }))).data
}

/** The API path of a page of the activity log: the search is the actor's name or e-mail; `limit`, where a screen shows fewer. */
const activityPagePath = (q: ListQuery, limit?: number) =>
  withParams(paths.activity, {
    username: q.search.trim() === "" ? undefined : q.search.trim(),
    area: q.filters.area,
    action: q.filters.action,
    record: q.filters.record,
    from: q.filters.from,
    to: q.filters.to,
    page: q.page > 1 ? String(q.page) : undefined,
    limit: limit === undefined ? undefined : String(limit)
  })

/**
 * A page of the log (`limit` entries, the API's default without): start-up's if it asked for
 * this one, else a request checked the same way, without effect's client.
 */
export const listActivity = async (q: ListQuery, limit?: number): Promise<ListPage<ActivityEntry>> => {
  const answer = await getChecked<{ readonly data: { readonly logs: ReadonlyArray<ActivityEntry>; readonly pagination: Pagination } }>(
    activityPagePath(q, limit),
    activityPage
  )
  return { rows: answer.data.logs, pagination: answer.data.pagination }
}

/** The log's CSV: every entry its filters match. */
export const exportActivity = (q: ListQuery): Promise<CsvFile> => getCsv(activityPagePath(q), "activity-log.csv")
