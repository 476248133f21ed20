import type { AdminAccount, AdminAccountInput, AdminAccountUpdate } from "../../contract/admin-users.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { CsvFile } from "./client.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

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
