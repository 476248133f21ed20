import { PersonIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"
import { CONTACTS_PATH } from "./first-page.ts"

/** Core-team contacts in the sidebar: the spec's path and label (docs/product-spec.md §2). */
export const contactDestinations: ReadonlyArray<Destination> = [
  { path: CONTACTS_PATH, label: "Core Team Contacts", title: "Core Team Contacts", icon: PersonIcon, key: "c" }
]
