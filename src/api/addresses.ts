import { Effect, Schema } from "effect"
import {
  type AddressHit,
  type AddressKind,
  AddressSort,
  type AnyAddress,
  CexAddressInput,
  CoreTeamAddressInput,
  GeneratedAddressInput
} from "../../contract/addresses.ts"
import type { Pagination } from "../../contract/common.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"

const api = () => import("./client.ts")

/** What the modal sends: the form's fields, already typed for the directory. */
export type AddressInput = Record<string, string | number>

const isSort = (value: string | undefined): value is AddressSort =>
  value !== undefined && (AddressSort.literals as ReadonlyArray<string>).includes(value)

/** The list query as the API's query parameters (without the page for an export). */
const filtersOf = (q: ListQuery) => ({
  ...(q.search.trim() === "" ? {} : { search: q.search.trim() }),
  ...(isSort(q.sort) ? { sort: q.sort } : {}),
  ...(q.order === undefined ? {} : { order: q.order })
})

export const listAddresses = async (token: string, kind: AddressKind, q: ListQuery): Promise<ListPage<AnyAddress>> => {
  const { callApi, jsonOnly } = await api()
  const options = { query: { ...filtersOf(q), ...(q.page > 1 ? { page: q.page } : {}) } }
  const answer = await callApi(token, (client): Effect.Effect<{ readonly data: { readonly addresses: ReadonlyArray<AnyAddress>; readonly pagination: Pagination } }, unknown> => {
    switch (kind) {
      case "generated": return Effect.flatMap(client.generatedAddresses.list(options), jsonOnly)
      case "cex": return Effect.flatMap(client.cexAddresses.list(options), jsonOnly)
      case "core-team": return Effect.flatMap(client.coreTeamAddresses.list(options), jsonOnly)
    }
  })
  return { rows: answer.data.addresses, pagination: answer.data.pagination }
}

/** Where the directory's CSV export is: every address the list's search matches, in its order. */
export const addressExportPath = (kind: AddressKind, q: ListQuery): string =>
  `/api/admin/addresses/${kind}?${new URLSearchParams({ ...filtersOf(q), format: "csv" })}`

/** The form's values checked against the directory's own input schema before they are sent. */
const checked = <A>(schema: Schema.Decoder<A>, input: AddressInput) =>
  Schema.decodeUnknownEffect(schema)(input, { errors: "all" }).pipe(
    Effect.mapError((error) => ({ status: 400, message: error.message }))
  )

export const saveAddress = async (
  token: string,
  kind: AddressKind,
  target: { readonly id: string; readonly version: number } | null,
  input: AddressInput
): Promise<AnyAddress> => {
  const { callApi } = await api()
  const params = { id: target?.id ?? "" }
  const version = target?.version ?? 0
  return callApi(token, (client): Effect.Effect<{ readonly data: { readonly address: AnyAddress } }, unknown> => {
    switch (kind) {
      case "generated":
        return Effect.flatMap(checked(GeneratedAddressInput, input), (payload) =>
          target === null
            ? client.generatedAddresses.create({ payload })
            : client.generatedAddresses.update({ params, payload: { ...payload, version } }))
      case "cex":
        return Effect.flatMap(checked(CexAddressInput, input), (payload) =>
          target === null
            ? client.cexAddresses.create({ payload })
            : client.cexAddresses.update({ params, payload: { ...payload, version } }))
      case "core-team":
        return Effect.flatMap(checked(CoreTeamAddressInput, input), (payload) =>
          target === null
            ? client.coreTeamAddresses.create({ payload })
            : client.coreTeamAddresses.update({ params, payload: { ...payload, version } }))
    }
  }).then((answer) => answer.data.address)
}

export const deleteAddress = async (token: string, kind: AddressKind, id: string, version: number): Promise<void> => {
  const { callApi } = await api()
  const options = { params: { id }, query: { version } }
  await callApi(token, (client): Effect.Effect<unknown, unknown> => {
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
