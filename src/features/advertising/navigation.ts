import { SpeakerLoudIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

/** Advertising inquiries in the sidebar, after core-team contacts (docs/product-spec.md §2). */
export const advertisingDestinations: ReadonlyArray<Destination> = [
  { path: "/advertising-inquiries", label: "Advertising Inquiries", title: "Advertising Inquiries", icon: SpeakerLoudIcon, key: "a" }
]
