import type { ActivityArea, ActivityEntry, Analytics, AnalyticsPeriod } from "../../contract/activity.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { CsvFile } from "./client.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

export const fetchAnalytics = async (period: AnalyticsPeriod): Promise<Analytics> => {
  const { callApi } = await api()
  return (await callApi((client) => client.analytics.get({ query: { period } }))).data
}

/** The activity log's filters from a screen's query: the search is the actor's name or e-mail. */
const activityParams = (q: ListQuery) => ({
  username: q.search.trim() === "" ? undefined : q.search.trim(),
  area: q.filters.area as ActivityArea | undefined,
  action: q.filters.action,
  record: q.filters.record,
  from: q.filters.from,
  to: q.filters.to
})

const defined = <A extends Record<string, unknown>>(value: A) =>
  Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as { [K in keyof A]?: Exclude<A[K], undefined> }

export const listActivity = async (q: ListQuery, limit?: number): Promise<ListPage<ActivityEntry>> => {
  const { callListApi } = await api()
  const answer = await callListApi((client) =>
    client.activity.list({
      query: { ...defined(activityParams(q)), ...(q.page > 1 ? { page: q.page } : {}), ...(limit === undefined ? {} : { limit }) }
    })
  )
  return { rows: answer.data.logs, pagination: answer.data.pagination }
}

/** The log's CSV: every entry its filters match. */
export const exportActivity = async (q: ListQuery): Promise<CsvFile> => {
  const { callCsvApi } = await api()
  return callCsvApi("activity-log.csv", (client) =>
    client.activity.list({ query: { ...defined(activityParams(q)), format: "csv" }, responseMode: "decoded-and-response" })
  )
}
