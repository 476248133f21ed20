import { CheckboxIcon } from "@radix-ui/react-icons"
import { TRIAGE_PATH } from "../../lib/paths.ts"
import type { Destination } from "../../lib/navigation.ts"

export const triageDestinations: ReadonlyArray<Destination> = [{ path: TRIAGE_PATH, label: "Triage", title: "Triage", icon: CheckboxIcon, key: "t" }]
