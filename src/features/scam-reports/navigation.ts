import { ExclamationTriangleIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

export const scamReportDestinations: ReadonlyArray<Destination> = [
  { path: "/scam-reports", label: "Scam Reports", title: "Scam Reports Management", icon: ExclamationTriangleIcon, key: "r" }
]
