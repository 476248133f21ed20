import { Effect, PubSub } from "effect"
import type { HttpServerRequest } from "effect/http"
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../../contract/common.ts"
import { PUBLIC_LIST_DEPTH } from "../../contract/public-reads.ts"
import type { RecordedEvent } from "../platform/activity-log.ts"
import { announcedActions, ChangeFeed, CommittedChanges } from "../platform/change-feed.ts"
import { Database } from "../platform/database.ts"
import type { ResponseCache, ResponseCacheLimits } from "../platform/response-cache.ts"

/**
 * What the public reads most, kept in each server's memory (docs/decisions.md, "The public's
 * reads"): a list's pages within the public's depth, a post, the categories and the tags, as
 * the public is answered them. Staff's reads are never kept nor answered from it: a kept answer
 * is the public's, and a staff reader's goes past it (server/auth/public-reads.ts).
 */
export const PUBLIC_CACHE_LIMITS: ResponseCacheLimits = {
  freshMs: 5_000,
  staleMs: 25_000,
  maxBytes: 16 * 1024 * 1024,
  maxEntryBytes: 512 * 1024
}

/** A page number or size as the public's site writes it; any other spelling is read, not kept. */
const plainNumber = /^[1-9]\d{0,6}$/

const lists = /^\/api\/(blog\/posts|listings\/[a-z]+)$/

/** The area whose changes drop an answer: the listings or the blog. */
const areaOf = (path: string) => (path.startsWith("/api/blog/") ? "blog" : path.startsWith("/api/listings/") ? "listing" : undefined)

const decodedPath = (pathname: string) => {
  try {
    return decodeURIComponent(pathname)
  } catch {
    return undefined
  }
}

/**
 * The key and area of a read the cache may answer, or undefined: a GET of a public list with at
 * most `page` and `limit` (within the public's depth: a deeper page is a 400, never kept), or of
 * a post, the categories or the tags without a query. A search, a CSV, a status or anything else
 * in the query is read each time, so no one can fill the memory with keys of their making.
 */
export const publicCacheKey = (request: HttpServerRequest.HttpServerRequest): { readonly key: string; readonly area: string } | undefined => {
  if (request.method !== "GET" || (request.headers.accept ?? "").toLowerCase().includes("text/csv")) return undefined
  // An absolute-form target (`GET http://host/path`) names its path too; one no URL can be made of is read, not kept.
  const url = URL.parse(request.url, "http://public")
  if (url === null) return undefined
  const path = decodedPath(url.pathname)
  const area = path === undefined ? undefined : areaOf(path)
  if (path === undefined || area === undefined) return undefined
  const query = [...url.searchParams]
  if (!lists.test(path)) return query.length === 0 ? { key: path, area } : undefined
  const given = new Map(query)
  if (given.size !== query.length || [...given].some(([name, value]) => (name !== "page" && name !== "limit") || !plainNumber.test(value))) return undefined
  const page = Number(given.get("page") ?? 1)
  const limit = Number(given.get("limit") ?? DEFAULT_PAGE_SIZE)
  if (limit > MAX_PAGE_SIZE || page * limit > PUBLIC_LIST_DEPTH) return undefined
  return { key: `${path}?page=${page}&limit=${limit}`, area }
}

/** Public submissions arrive pending, which the public's lists never show: they drop nothing, so submitting cannot empty the cache. */
const PENDING_SUBMISSION = "listing.submit"

/** The activity-log areas whose records the public reads: a change there drops that area's answers. */
const CACHED_AREAS = ["listing", "blog"]

/** The cached area of an event's action (`listing.status`, `blog.update`), unless it changes nothing the public reads. */
const cachedAreaOf = (action: string) => {
  const area = action.slice(0, action.indexOf("."))
  return CACHED_AREAS.includes(area) && action !== PENDING_SUBMISSION ? area : undefined
}

const dropAll = (cache: ResponseCache, actions: ReadonlyArray<string>) => {
  for (const area of new Set(actions.map(cachedAreaOf))) if (area !== undefined) cache.invalidate(area)
}

/**
 * Drops what changes made stale, as they come: this server's own once they commit, before their
 * answer leaves (server/platform/change-feed.ts, `CommittedChanges`); on PostgreSQL another
 * server's as soon as its NOTIFY lands (a few milliseconds), reading the announced events' actions.
 * When those cannot be read, everything is dropped.
 */
export const invalidateOnChanges = (cache: ResponseCache) =>
  Effect.gen(function* () {
    const committed = yield* CommittedChanges
    const own = (events: ReadonlyArray<RecordedEvent>) =>
      dropAll(
        cache,
        events.map((event) => event.action)
      )
    committed.add(own)
    yield* Effect.addFinalizer(() => Effect.sync(() => committed.delete(own)))
    if ((yield* Database).engine !== "postgresql") return
    const feed = yield* ChangeFeed
    const database = yield* Effect.context<Effect.Services<ReturnType<typeof announcedActions>>>()
    const notices = yield* PubSub.subscribe(feed.hub)
    const next = Effect.flatMap(PubSub.takeAll(notices), (batches) => announcedActions(batches.flat(), CACHED_AREAS)).pipe(
      Effect.map((actions) => dropAll(cache, actions)),
      Effect.catchCause((cause) =>
        Effect.andThen(Effect.sync(cache.invalidateAll), Effect.logWarning("Reading announced changes for the public cache failed", cause))
      ),
      Effect.provideContext(database)
    )
    yield* Effect.forkScoped(Effect.forever(next))
  })
