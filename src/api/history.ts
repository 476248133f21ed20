import type { HistoryEntry } from "../../contract/history.ts"
import type { HistoryKind } from "../../contract/history-rules.ts"
import type { Pagination } from "../../contract/common.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")

/** A record's history page: its versions, newest first, and the record now. */
export interface HistoryPage {
  readonly entries: ReadonlyArray<HistoryEntry>
  readonly pagination: Pagination
  readonly current: { readonly version: number; readonly removed: boolean }
}

/** A record as it was at one version. */
export interface RecordVersion {
  readonly version: number
  readonly at: string
  readonly removed: boolean
  readonly content: Readonly<Record<string, unknown>>
  readonly hidden: ReadonlyArray<string>
}

/** The newest 100 versions of a record (docs/api.md, "Record history"). */
export const loadHistory = async (kind: HistoryKind, id: string): Promise<HistoryPage> => {
  const { callApi } = await api()
  const answer = await callApi((client) => client.history.list({ params: { kind, id }, query: { limit: 100 } }))
  return answer.data
}

export const loadVersion = async (kind: HistoryKind, id: string, version: number): Promise<RecordVersion> => {
  const { callApi } = await api()
  const answer = await callApi((client) => client.history.version({ params: { kind, id, version } }))
  return answer.data
}

/** Writes `version` as the record's newest, at the version the person saw. */
export const restoreVersion = async (kind: HistoryKind, id: string, version: number, expectedVersion: number): Promise<{ readonly version: number }> => {
  const { callApi } = await api()
  const answer = await callApi((client) => client.history.restore({ params: { kind, id }, payload: { version, expectedVersion } }))
  return answer.data
}

/** The signed-in person's newest change of a record, or null: what `z` undoes. */
export const loadLastChange = async () => {
  const { callApi } = await api()
  const answer = await callApi((client) => client.history.last())
  return answer.data.change
}

/** The records of a kind removed and not brought back, newest removal first (the first 100). */
export const loadRemoved = async (kind: HistoryKind) => {
  const { callApi } = await api()
  const answer = await callApi((client) => client.history.removed({ params: { kind }, query: { limit: 100 } }))
  return answer.data.records
}
