import type { AdminSession } from "../../contract/sessions.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import { onePage } from "./one-page.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

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
