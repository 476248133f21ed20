import { CubeIcon, IdCardIcon, TokensIcon } from "@radix-ui/react-icons"
import type { AddressKind } from "../../../contract/addresses.ts"
import type { Destination } from "../../lib/navigation.ts"
import { directories } from "./directories.ts"

const entries: Record<AddressKind, Pick<Destination, "icon" | "key">> = {
  generated: { icon: TokensIcon, key: "g" },
  cex: { icon: CubeIcon, key: "x" },
  "core-team": { icon: IdCardIcon, key: "f" }
}

/** The three directories, in the sidebar's order. */
export const addressDestinations: ReadonlyArray<Destination> = (["generated", "cex", "core-team"] as const).map((kind) => ({
  path: directories[kind].path,
  label: directories[kind].title,
  title: directories[kind].title,
  ...entries[kind]
}))
