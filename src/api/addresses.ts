import type { AddressHit, AddressKind, AnyAddress } from "../../contract/addresses.ts"
import type { Pagination } from "../../contract/common.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import { cexPage, coreTeamPage, generatedPage } from "virtual:answer-schemas"
import { arrivedChecked, getChecked } from "./checked-answer.ts"
import type { CsvFile, CallAs } from "./client.ts"
import { addressPagePath } from "./list-paths.ts"

/** The calls themselves need effect, so they load on first use (src/api/address-calls.ts). */
const calls = () => import("./address-calls.ts")

/** Loads the calls (saves, deletes, "Find address") before the first of them needs them. */
export const preloadAddressCalls = () => calls()

import type { AddressInput } from "./address-calls.ts"

export type { AddressInput }

/** Each directory's page schema, named one by one: the start chunk then holds none of the module's other exports. */
const pageSchemas = { generated: generatedPage, cex: cexPage, "core-team": coreTeamPage } as const

type AddressPage = { readonly data: { readonly addresses: ReadonlyArray<AnyAddress>; readonly pagination: Pagination } }

const pageOf = (answer: AddressPage): ListPage<AnyAddress> => ({ rows: answer.data.addresses, pagination: answer.data.pagination })

/** A directory's page: the one start-up asked for if it is this one, else a request checked the same way. */
export const listAddresses = async (kind: AddressKind, q: ListQuery): Promise<ListPage<AnyAddress>> =>
  pageOf(await getChecked<AddressPage>(addressPagePath(kind, q), pageSchemas[kind]))

/**
 * The directory's page start-up asked for, if its answer is already here and well formed: the
 * screen renders it in its first commit. Anything else (not here yet, refused, malformed) is
 * left to `listAddresses`, which asks again and reports what went wrong.
 */
export const arrivedAddresses = (kind: AddressKind, q: ListQuery): ListPage<AnyAddress> | undefined => {
  const answer = arrivedChecked<AddressPage>(addressPagePath(kind, q), pageSchemas[kind])
  return answer === undefined ? undefined : pageOf(answer)
}

/** The directory's CSV: every address the list's search matches, in its order. */
export const exportAddresses = async (kind: AddressKind, q: ListQuery): Promise<CsvFile> =>
  // Loaded when asked for: a directory is a first screen, and its code is counted (docs/performance.md).
  (await import("./csv.ts")).getCsv(addressPagePath(kind, q), `${kind}-addresses.csv`)

export const saveAddress = async (
  kind: AddressKind,
  target: { readonly id: string; readonly version: number } | null,
  input: AddressInput,
  as?: CallAs
): Promise<AnyAddress> => (await calls()).saveAddress(kind, target, input, as)

/** The browser's store's name for the directories' addresses (the stream's area). */
export const ADDRESS_KIND = "address" as const

export const deleteAddress = async (kind: AddressKind, id: string, version: number, as?: CallAs): Promise<void> =>
  (await calls()).deleteAddress(kind, id, version, as)

export const findAddresses = async (q: string): Promise<ReadonlyArray<AddressHit>> => (await calls()).findAddresses(q)
