import { ReaderIcon } from "@radix-ui/react-icons"
import type { Destination } from "../../lib/navigation.ts"

export const blogDestinations: ReadonlyArray<Destination> = [{ path: "/blog", label: "Blog Management", title: "Blog Management", icon: ReaderIcon, key: "b" }]
