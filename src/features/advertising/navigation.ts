import { SpeakerLoudIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"
import { INQUIRIES_PATH } from "./first-page.ts"

/** Advertising inquiries in the sidebar, after core-team contacts (docs/product-spec.md §2). */
export const advertisingDestinations: ReadonlyArray<Destination> = [
  { path: INQUIRIES_PATH, label: "Advertising Inquiries", title: "Advertising Inquiries", icon: SpeakerLoudIcon, key: "a" }
]
