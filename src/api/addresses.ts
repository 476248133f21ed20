import type { AddressHit, AddressKind, AddressSort, AnyAddress } from "../../contract/addresses.ts"
import type { Pagination } from "../../contract/common.ts"

const api = () => import("./client.ts")

export interface AddressPage {
  readonly addresses: ReadonlyArray<AnyAddress>
  readonly pagination: Pagination
}

export interface AddressQuery {
  readonly search: string
  readonly page: number
  readonly sort?: AddressSort
  readonly order?: "asc" | "desc"
}

/** What the modal sends: the form's fields, already typed for the directory. */
export type AddressInput = Record<string, string | number>

const query = (q: AddressQuery) => ({
  ...(q.search.trim() === "" ? {} : { search: q.search.trim() }),
  ...(q.page > 1 ? { page: q.page } : {}),
  ...(q.sort === undefined ? {} : { sort: q.sort }),
  ...(q.order === undefined ? {} : { order: q.order })
})

/**
 * The three directories are three groups of the contract with one shape; the form's values
 * go as they are and the server's schema checks them, so a field the form got wrong is a
 * 400 with its name, shown in the modal.
 */
type Input = never

export const listAddresses = async (token: string, kind: AddressKind, q: AddressQuery): Promise<AddressPage> => {
  const { callApi } = await api()
  const options = { query: query(q) }
  return callApi(token, (client): import("effect").Effect.Effect<{ readonly data: AddressPage }, unknown> => {
    switch (kind) {
      case "generated": return client.generatedAddresses.list(options)
      case "cex": return client.cexAddresses.list(options)
      case "core-team": return client.coreTeamAddresses.list(options)
    }
  }).then((answer) => answer.data)
}

export const saveAddress = async (
  token: string,
  kind: AddressKind,
  target: { readonly id: string; readonly version: number } | null,
  input: AddressInput
): Promise<AnyAddress> => {
  const { callApi } = await api()
  const payload = input as Input
  const params = { id: target?.id ?? "" }
  const updatePayload = { ...input, version: target?.version ?? 0 } as Input
  return callApi(token, (client): import("effect").Effect.Effect<{ readonly data: { readonly address: AnyAddress } }, unknown> => {
    if (target === null) {
      switch (kind) {
        case "generated": return client.generatedAddresses.create({ payload })
        case "cex": return client.cexAddresses.create({ payload })
        case "core-team": return client.coreTeamAddresses.create({ payload })
      }
    }
    switch (kind) {
      case "generated": return client.generatedAddresses.update({ params, payload: updatePayload })
      case "cex": return client.cexAddresses.update({ params, payload: updatePayload })
      case "core-team": return client.coreTeamAddresses.update({ params, payload: updatePayload })
    }
  }).then((answer) => answer.data.address)
}

export const deleteAddress = async (token: string, kind: AddressKind, id: string, version: number): Promise<void> => {
  const { callApi } = await api()
  const options = { params: { id }, query: { version } }
  await callApi(token, (client): import("effect").Effect.Effect<unknown, unknown> => {
    switch (kind) {
      case "generated": return client.generatedAddresses.remove(options)
      case "cex": return client.cexAddresses.remove(options)
      case "core-team": return client.coreTeamAddresses.remove(options)
    }
  })
}

export const findAddresses = async (token: string, q: string): Promise<ReadonlyArray<AddressHit>> => {
  const { callApi } = await api()
  const answer = await callApi(token, (client) => client.addressSearch.find({ query: { q } }))
  return answer.data.hits
}
