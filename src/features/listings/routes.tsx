import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"
import type { QueueKindKey } from "./kinds.ts"

const ListingsScreen = loadScreen((): Promise<(props: { readonly kind: QueueKindKey }) => React.ReactNode> =>
  import("./screens.ts").then((module) => ({ kind }: { readonly kind: QueueKindKey }) => <module.ListingsScreen kind={module.queueKinds[kind]} />))

/** The moderated queues; each keeps its own screen state (`key`). */
const paths: ReadonlyArray<readonly [string, QueueKindKey]> = [
  ["/communities", "community"],
  ["/influencers", "influencer"],
  ["/businesses", "business"],
  ["/startups", "startup"],
  ["/projects", "project"],
  ["/events", "event"],
  ["/hackathons", "hackathon"]
]

export const listingRoutes: ReadonlyArray<FeatureRoute> = paths.map(([path, kind]) => ({
  path,
  render: () => <ListingsScreen key={kind} kind={kind} />
}))
