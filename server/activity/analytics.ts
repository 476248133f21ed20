import { Effect } from "effect"
import { type Analytics, type AnalyticsPeriod, listingStatistics } from "../../contract/activity.ts"
import { analyticsCounts } from "./repository.ts"

/** The dashboard's figures of a period, read from the counts the database keeps (docs/api.md, "Analytics"). */

const statisticOf: Readonly<Record<string, keyof Analytics["statistics"] | undefined>> = listingStatistics

const utcDay = (date: Date) => date.toISOString().slice(0, 10)

/** Every bucket of the period, oldest first, so a quiet day shows as 0 rather than missing. */
const bucketsOf = (period: AnalyticsPeriod, first: string | null, today: Date): ReadonlyArray<string> => {
  if (period !== "all") {
    const days = period === "7d" ? 7 : 30
    return Array.from({ length: days }, (_, index) => utcDay(new Date(today.getTime() - (days - 1 - index) * 86_400_000)))
  }
  const start = first === null ? today : new Date(`${first.slice(0, 7)}-01T00:00:00Z`)
  const months: Array<string> = []
  for (let year = start.getUTCFullYear(), month = start.getUTCMonth(); ;) {
    const text = `${year}-${String(month + 1).padStart(2, "0")}-01`
    months.push(text)
    if (year === today.getUTCFullYear() && month === today.getUTCMonth()) break
    month += 1
    if (month === 12) {
      month = 0
      year += 1
    }
  }
  return months
}

export const analyticsOf = (period: AnalyticsPeriod) =>
  Effect.gen(function* () {
    const today = new Date()
    const since = period === "all" ? "0001-01-01" : bucketsOf(period, null, today)[0]!
    const bucket = period === "all" ? "month" : "day"
    const row = yield* analyticsCounts(bucket, since)
    const parse = <A>(value: A | string | null): A | null => (typeof value === "string" ? (JSON.parse(value) as A) : value)
    const listings = parse(row.listings) ?? []
    const created = new Map((parse(row.created) ?? []).map((point) => [point.start, Number(point.total)]))
    const statistics: { -readonly [K in keyof Analytics["statistics"]]: number } = {
      totalBlogs: row.blogs,
      totalCommunities: 0,
      totalInfluencers: 0,
      totalBusinesses: 0,
      totalStartups: 0,
      totalProjects: 0,
      totalEvents: 0,
      totalHackathons: 0,
      pendingReviews: 0
    }
    const pendingListings = new Map<string, number>()
    for (const count of listings) {
      const key = statisticOf[count.type]
      if (key !== undefined) statistics[key] += Number(count.total)
      if (count.status === "pending") pendingListings.set(count.type, (pendingListings.get(count.type) ?? 0) + Number(count.total))
    }
    const pending = {
      listings: Object.keys(statisticOf).map((type) => ({ type, count: pendingListings.get(type) ?? 0 })),
      scamReports: row.scamReports,
      contacts: row.contacts,
      inquiries: row.inquiries,
      paidInquiries: row.paidInquiries
    }
    statistics.pendingReviews =
      pending.listings.reduce((sum, part) => sum + part.count, 0) + pending.scamReports + pending.contacts + pending.inquiries + pending.paidInquiries
    const points = bucketsOf(period, row.firstDay, today).map((start) => ({ start, total: created.get(start) ?? 0 }))
    return {
      period,
      statistics,
      pending,
      created: { bucket, points, total: points.reduce((sum, point) => sum + point.total, 0) }
    } satisfies Analytics
  })
