import type { FeatureRoute } from "../../lib/navigation.ts"
import { AddressesScreen } from "./AddressesScreen.tsx"
import { directories } from "./directories.ts"

export const addressRoutes: ReadonlyArray<FeatureRoute> = Object.values(directories).map((spec) => ({
  path: spec.path,
  render: () => <AddressesScreen key={spec.kind} kind={spec.kind} />
}))
