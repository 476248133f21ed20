import type { EventEntry, EventInput, EventListPage, EventType } from "../../contract/events.ts"
import type { ListingCounts } from "../../contract/listings.ts"
import type { ListPage, ListQuery } from "../../machines/list.ts"
import eventPage from "virtual:answer-schemas/eventPage"
import { getChecked } from "./checked-answer.ts"
import { getCsv } from "./csv.ts"
import { callTo } from "./endpoints.ts"
import { eventPagePath } from "./list-paths.ts"

/** The effect client loads on first use (src/api/client.ts). */
const api = () => import("./client.ts")
import type { CallAs, CsvFile } from "./client.ts"

export type EventPage = ListPage<EventEntry> & { readonly counts: ListingCounts }

/** An events screen's CSV: every record its filters match. */
export const exportEvents = (type: EventType, q: ListQuery): Promise<CsvFile> => getCsv(eventPagePath(type, q), `${type}s.csv`)

/** A page of events or hackathons with its counts: the one start-up asked for if it is this one, else a request checked the same way, without effect's client. */
export const listEvents = async (type: EventType, q: ListQuery): Promise<EventPage> => {
  const answer = await getChecked<{ readonly data: EventListPage["data"] }>(eventPagePath(type, q), eventPage)
  return { rows: answer.data[type] ?? [], pagination: answer.data.pagination, counts: answer.data.counts }
}

export const saveEvent = async (type: EventType, target: EventEntry | null, input: Readonly<Record<string, unknown>>, as?: CallAs) => {
  const { callApi } = await api()
  // The form's values are typed by the kind's fields; the server checks them against the contract.
  const payload = input as EventInput
  return callApi(
    (client) =>
      target === null
        ? client.events.create({ query: { type }, payload })
        : client.events.update({ params: { id: target._id }, query: { type }, payload: { ...payload, version: target.version } }),
    as
  )
}

/** Featuring an event or not (`f`) as a command (contract/events.ts, `setFeatured`; docs/architecture.md, "The browser's store"). */
export const eventFeaturedCommand = (type: EventType, target: EventEntry, featured: boolean, version: number) =>
  ({
    ...callTo("eventFeatured", { id: target._id }, { type }),
    body: { featured, version },
    effect: { featured }
  }) as const

export const deleteEvent = async (type: EventType, target: EventEntry, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  await callApi((client) => client.events.remove({ params: { id: target._id }, query: { type, version: target.version } }), as)
}
