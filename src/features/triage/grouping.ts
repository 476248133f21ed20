import { httpAddresses } from "../../../contract/text.ts"
import type { TriageItem } from "../../../contract/triage.ts"

/**
 * Related reports on the desk's page (docs/console.md, "The triage desk"): two reports are related
 * when they name the same wallet or an address of the same evidence, as the server's related
 * reports are (GET /api/report-scam/{id}/related). Other kinds relate to nothing.
 */
export const relatedKeys = (item: TriageItem): ReadonlyArray<string> =>
  item.area !== "scam-report"
    ? []
    : [...(item.walletAddress === "" ? [] : [`wallet:${item.walletAddress}`]), ...httpAddresses(item.evidence).map((found) => `evidence:${found.href}`)]

/** Each row's group on the page: the position of the first row it relates to, through any chain of shared keys. */
const groupsOf = (rows: ReadonlyArray<TriageItem>): ReadonlyArray<number> => {
  const parent = rows.map((_, at) => at)
  const root = (at: number): number => (parent[at] === at ? at : (parent[at] = root(parent[at] ?? at)))
  const firstWith = new Map<string, number>()
  rows.forEach((row, at) => {
    for (const key of relatedKeys(row)) {
      const seen = firstWith.get(key)
      if (seen === undefined) firstWith.set(key, at)
      else {
        const [a, b] = [root(seen), root(at)]
        parent[Math.max(a, b)] = Math.min(a, b)
      }
    }
  })
  return rows.map((_, at) => root(at))
}

/** The page with each group of related reports together, where its first report stands; the rest keep their order. */
export const groupRelated = <Row extends TriageItem>(rows: ReadonlyArray<Row>): ReadonlyArray<Row> => {
  const groups = groupsOf(rows)
  return rows.flatMap((row, at) => (groups[at] !== at ? [] : rows.filter((_, other) => groups[other] === at)))
}

/** How many other reports on the page each report relates to (by id; none for a report alone). */
export const relatedOnPage = (rows: ReadonlyArray<TriageItem>): ReadonlyMap<string, number> => {
  const groups = groupsOf(rows)
  const sizes = new Map<number, number>()
  for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1)
  return new Map(rows.flatMap((row, at) => ((sizes.get(groups[at] ?? at) ?? 1) > 1 ? [[row._id, (sizes.get(groups[at] ?? at) ?? 1) - 1] as const] : [])))
}
