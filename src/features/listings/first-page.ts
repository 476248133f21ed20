import { listingStatuses } from "../../../contract/listing-rules.ts"
import { projectStatuses, startupStages } from "../../../contract/venture-rules.ts"
import type { ListingType } from "../../../contract/listings.ts"
import { eventPagePath, listingPagePath, venturePagePath } from "../../api/list-paths.ts"
import { listingPaths } from "../../lib/paths.ts"
import { parseQuery, type QuerySpec } from "../../lib/list/query-string.ts"
import type { ListQuery } from "../../../machines/list.ts"

/**
 * What each queue's URL may hold, and the API path of its page (./kinds.ts takes both): written
 * without the screens' code, so start-up asks for a queue's first page with the document
 * (src/app/start/early-requests.ts). A search matches the name and description
 * (server/listings/repository.ts, `search_text`).
 */
const searches = ["name", "description"] as const
const status = { status: listingStatuses }
const yesOrNo = ["yes", "no"] as const

export const queueQuerySpecs = {
  community: { filters: status, searches },
  influencer: { filters: status, searches },
  business: { filters: { ...status, active: yesOrNo }, searches },
  startup: { filters: { ...status, active: yesOrNo, stage: startupStages }, searches },
  project: { filters: { ...status, active: yesOrNo, projectStatus: projectStatuses }, searches },
  event: { filters: { ...status, when: ["upcoming", "past"], featured: yesOrNo }, searches },
  hackathon: { filters: { ...status, when: ["upcoming", "past"], featured: yesOrNo }, searches }
} as const satisfies Record<ListingType, QuerySpec>

const pagePaths: Readonly<Record<ListingType, (q: ListQuery) => string>> = {
  community: (q) => listingPagePath("community", q),
  influencer: (q) => listingPagePath("influencer", q),
  business: (q) => venturePagePath("business", q),
  startup: (q) => venturePagePath("startup", q),
  project: (q) => venturePagePath("project", q),
  event: (q) => eventPagePath("events", q),
  hackathon: (q) => eventPagePath("hackathons", q)
}

const queues = Object.keys(listingPaths) as ReadonlyArray<ListingType>

/** The API path of the first page a queue screen will show for this address, if it is one. */
export const listingFirstPage = (pathname: string, search: string): string | undefined => {
  const type = queues.find((queue) => listingPaths[queue] === pathname)
  return type === undefined ? undefined : pagePaths[type](parseQuery(queueQuerySpecs[type], search))
}
