import type { ListingCounts } from "../../contract/listings.ts"
import type { AnyVenture, BusinessInput, ProjectInput, StartupInput, VentureType } from "../../contract/ventures.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import type { Pagination } from "../../contract/common.ts"
import businessPage from "virtual:answer-schemas/businessPage"
import projectPage from "virtual:answer-schemas/projectPage"
import startupPage from "virtual:answer-schemas/startupPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { callTo } from "./endpoints.ts"
import { venturePagePath } from "./list-paths.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CallAs, CsvFile } from "./client.ts"

export type VenturesPage = ListPage<AnyVenture> & { readonly counts: ListingCounts }

/** A venture screen's CSV: every record its search and filters match. */
export const exportVentures = (type: VentureType, q: ListQuery): Promise<CsvFile> =>
  getCsv(venturePagePath(type, q), `${type === "business" ? "businesses" : `${type}s`}.csv`)

type VenturePageAnswer<Field extends string> = {
  readonly data: { readonly [K in Field]: ReadonlyArray<AnyVenture> } & { readonly pagination: Pagination; readonly counts: ListingCounts }
}

/** A page of a venture list with its counts: the one start-up asked for if it is this one, else a request checked the same way, without effect's client. */
export const listVentures = async (type: VentureType, q: ListQuery): Promise<VenturesPage> => {
  const path = venturePagePath(type, q)
  switch (type) {
    case "business": {
      const answer = await getChecked<VenturePageAnswer<"businesses">>(path, businessPage)
      return { rows: answer.data.businesses, pagination: answer.data.pagination, counts: answer.data.counts }
    }
    case "startup": {
      const answer = await getChecked<VenturePageAnswer<"startups">>(path, startupPage)
      return { rows: answer.data.startups, pagination: answer.data.pagination, counts: answer.data.counts }
    }
    case "project": {
      const answer = await getChecked<VenturePageAnswer<"projects">>(path, projectPage)
      return { rows: answer.data.projects, pagination: answer.data.pagination, counts: answer.data.counts }
    }
  }
}

/**
 * Adds a record (pending), or edits one at the version it was read: the whole record is sent.
 * The form's values are typed by the kind's fields; the server checks them against the contract.
 */
export const saveVenture = async (type: VentureType, target: AnyVenture | null, input: Readonly<Record<string, unknown>>, as?: CallAs): Promise<AnyVenture> => {
  const { callApi } = await api()
  const update = target === null ? undefined : { params: { id: target._id } }
  const version = target?.version ?? 0
  switch (type) {
    case "business": {
      const payload = input as BusinessInput
      const answer = await callApi(
        (client) => (update === undefined ? client.businesses.create({ payload }) : client.businesses.update({ ...update, payload: { ...payload, version } })),
        as
      )
      return answer.data.listing
    }
    case "startup": {
      const payload = input as StartupInput
      const answer = await callApi(
        (client) => (update === undefined ? client.startups.create({ payload }) : client.startups.update({ ...update, payload: { ...payload, version } })),
        as
      )
      return answer.data.listing
    }
    case "project": {
      const payload = input as ProjectInput
      const answer = await callApi(
        (client) => (update === undefined ? client.projects.create({ payload }) : client.projects.update({ ...update, payload: { ...payload, version } })),
        as
      )
      return answer.data.listing
    }
  }
}

/** Showing or hiding a venture (`t`) as a command (contract/ventures.ts, `setActive`; docs/architecture.md, "The browser's store"). */
export const ventureActiveCommand = (type: VentureType, target: AnyVenture, isActive: boolean, version: number) =>
  ({
    ...callTo(`${type}Active`, { id: target._id }),
    body: { isActive, version },
    effect: { isActive }
  }) as const

export const deleteVenture = async (type: VentureType, target: AnyVenture, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  const options = { params: { id: target._id }, query: { version: target.version } }
  switch (type) {
    case "business":
      return void (await callApi((client) => client.businesses.remove(options), as))
    case "startup":
      return void (await callApi((client) => client.startups.remove(options), as))
    case "project":
      return void (await callApi((client) => client.projects.remove(options), as))
  }
}
