import type { ActivityArea, ActivityEntry, Analytics, AnalyticsPeriod } from "../../contract/activity.ts"
import type { AdminAccount, AdminAccountInput, AdminAccountUpdate } from "../../contract/admin-users.ts"
import type { AdminSession } from "../../contract/sessions.ts"
import type { AllowedIp } from "../../contract/allowed-ips.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { CsvFile } from "./client.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

// ---------------------------------------------------------------------------
// Dashboard and activity log
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Admin users
// ---------------------------------------------------------------------------

export const listAdminUsers = async (q: ListQuery): Promise<ListPage<AdminAccount>> => {
  const { callListApi } = await api()
  const answer = await callListApi((client) =>
    client.adminUsers.list({
      query: { ...(q.search.trim() === "" ? {} : { search: q.search.trim() }), ...(q.page > 1 ? { page: q.page } : {}) }
    })
  )
  return { rows: answer.data.users, pagination: answer.data.pagination }
}

export const exportAdminUsers = async (q: ListQuery): Promise<CsvFile> => {
  const { callCsvApi } = await api()
  return callCsvApi("admins.csv", (client) =>
    client.adminUsers.list({ query: { ...(q.search.trim() === "" ? {} : { search: q.search.trim() }), format: "csv" }, responseMode: "decoded-and-response" })
  )
}

export const createAdminUser = async (input: AdminAccountInput): Promise<AdminAccount> => {
  const { callApi } = await api()
  return (await callApi((client) => client.adminUsers.create({ payload: input }))).data.user
}

export const updateAdminUser = async (target: AdminAccount, change: Omit<AdminAccountUpdate, "version">): Promise<AdminAccount> => {
  const { callApi } = await api()
  return (await callApi((client) => client.adminUsers.update({ params: { id: target._id }, payload: { ...change, version: target.version } }))).data.user
}

// ---------------------------------------------------------------------------
// Allowed addresses and sessions
// ---------------------------------------------------------------------------

/** A list the server answers whole (a few dozen rows at most): one page. */
const onePage = <Row>(rows: ReadonlyArray<Row>): ListPage<Row> => ({ rows, pagination: { page: 1, limit: rows.length, total: rows.length, pages: 1 } })

export type AllowedIpsPage = ListPage<AllowedIp> & { readonly yourIp: string }

export const listAllowedIps = async (): Promise<AllowedIpsPage> => {
  const { callApi } = await api()
  const { ips, yourIp } = (await callApi((client) => client.allowedIps.list())).data
  return { ...onePage(ips), yourIp }
}

export const addAllowedIp = async (ip: string, description: string): Promise<AllowedIp> => {
  const { callApi } = await api()
  return (await callApi((client) => client.allowedIps.create({ payload: { ip, description } }))).data.ip
}

export const removeAllowedIp = async (target: AllowedIp): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.allowedIps.remove({ params: { id: target._id } }))
}

/** The signed-in admin's sessions, or everyone's with the `scope=all` filter (super admins). */
export const listSessions = async (q: ListQuery): Promise<ListPage<AdminSession>> => {
  const { callApi } = await api()
  const scope = q.filters.scope === "all" ? "all" : "mine"
  return onePage((await callApi((client) => client.sessions.list({ query: { scope } }))).data.sessions)
}

export const endSession = async (target: AdminSession): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.sessions.end({ params: { id: target._id } }))
}

export const endOtherSessions = async (): Promise<number> => {
  const { callApi } = await api()
  return (await callApi((client) => client.sessions.endOthers())).data.ended
}
