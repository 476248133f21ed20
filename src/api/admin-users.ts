import type { AdminAccount, AdminAccountInput, AdminAccountUpdate } from "../../contract/admin-users.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { Pagination } from "../../contract/common.ts"
import { paths } from "virtual:answer-schemas"
import adminPage from "virtual:answer-schemas/adminPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { filteredPagePath } from "./list-paths.ts"
import type { CallAs, CsvFile } from "./client.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

/** A page of admins: the one start-up asked for if it is this one, else a request checked the same way, without effect's client. */
export const listAdminUsers = async (q: ListQuery): Promise<ListPage<AdminAccount>> => {
  const answer = await getChecked<{ readonly data: { readonly users: ReadonlyArray<AdminAccount>; readonly pagination: Pagination } }>(
    filteredPagePath(paths.adminUsers, q),
    adminPage
  )
  return { rows: answer.data.users, pagination: answer.data.pagination }
}

/** The screen's CSV: every admin its search matches. */
export const exportAdminUsers = (q: ListQuery): Promise<CsvFile> => getCsv(filteredPagePath(paths.adminUsers, q), "admins.csv")

/** The browser's store's name for admin users (the stream's area). */
export const ADMIN_KIND = "admin" as const

/** `as`: what the call does in the browser's store (src/api/client.ts, `callApi`). */
export const createAdminUser = async (input: AdminAccountInput, as?: CallAs): Promise<AdminAccount> => {
  const { callApi } = await api()
  return (await callApi((client) => client.adminUsers.create({ payload: input }), as)).data.user
}

export const updateAdminUser = async (target: AdminAccount, change: Omit<AdminAccountUpdate, "version">, as?: CallAs): Promise<AdminAccount> => {
  const { callApi } = await api()
  return (await callApi((client) => client.adminUsers.update({ params: { id: target._id }, payload: { ...change, version: target.version } }), as)).data.user
}
