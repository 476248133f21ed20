import { ExclamationTriangleIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"
import { REPORTS_PATH } from "./first-page.ts"

export const scamReportDestinations: ReadonlyArray<Destination> = [
  { path: REPORTS_PATH, label: "Scam Reports", title: "Scam Reports Management", icon: ExclamationTriangleIcon, key: "r" }
]
