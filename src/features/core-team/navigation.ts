import { PersonIcon, SpeakerLoudIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

/** The two inboxes, in the sidebar's order: core-team contacts, then advertising inquiries. */
export const inboxDestinations: ReadonlyArray<Destination> = [
  { path: "/core-team", label: "Core Team Contacts", title: "Core Team Contacts", icon: PersonIcon, key: "c" },
  { path: "/advertising-inquiries", label: "Advertising Inquiries", title: "Advertising Inquiries", icon: SpeakerLoudIcon, key: "a" }
]
