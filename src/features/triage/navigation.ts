import { CheckboxIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

export const triageDestinations: ReadonlyArray<Destination> = [{ path: "/triage", label: "Triage", title: "Triage", icon: CheckboxIcon, key: "t" }]
