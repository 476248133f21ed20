import type { FeatureRoute } from "../../lib/navigation.ts"
import { loadScreen } from "../../ui/deferred.tsx"
import type { QueueKindKey } from "./kinds.ts"
import { listingPaths } from "../../lib/paths.ts"

const ListingsScreen = loadScreen((): Promise<(props: { readonly kind: QueueKindKey }) => React.ReactNode> =>
  import("./screens.ts").then((module) => ({ kind }: { readonly kind: QueueKindKey }) => <module.ListingsScreen kind={module.queueKinds[kind]} />)
)

/** The moderated queues; each keeps its own screen state (`key`). */
export const listingRoutes: ReadonlyArray<FeatureRoute> = (Object.entries(listingPaths) as ReadonlyArray<[QueueKindKey, string]>).map(([kind, path]) => ({
  path,
  render: () => <ListingsScreen key={kind} kind={kind} />
}))
