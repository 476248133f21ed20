import type { AllowedIp } from "../../contract/allowed-ips.ts"
import type { ListPage } from "../../machines/list.ts"
import { onePage } from "./one-page.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CallAs } from "./client.ts"

export type AllowedIpsPage = ListPage<AllowedIp> & { readonly yourIp: string }

export const listAllowedIps = async (): Promise<AllowedIpsPage> => {
  const { callApi } = await api()
  const { ips, yourIp } = (await callApi((client) => client.allowedIps.list())).data
  return { ...onePage(ips), yourIp }
}

export const addAllowedIp = async (ip: string, description: string, as?: CallAs): Promise<AllowedIp> => {
  const { callApi } = await api()
  return (await callApi((client) => client.allowedIps.create({ payload: { ip, description } }), as)).data.ip
}

export const removeAllowedIp = async (target: AllowedIp, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.allowedIps.remove({ params: { id: target._id } }), as)
}
