import { Badge } from "@radix-ui/themes"
import { Command as Cmdk } from "cmdk"
import { useEffect, useState } from "react"
import type { AddressHit } from "../../../contract/addresses.ts"
import { findAddresses } from "../../api/addresses.ts"
import { ThemedCommandDialog } from "../../ui/ThemedCommandDialog.tsx"
import { directories } from "./directories.ts"
import { addressTexts as t } from "./texts.ts"

const SEARCH_DELAY_MS = 200

/** "Find address…": searches the three directories on the server and jumps to the row picked. */
export const FindAddressDialog = ({
  open,
  onOpenChange,
  onPick
}: {
  readonly open: boolean
  readonly onOpenChange: (open: boolean) => void
  readonly onPick: (hit: AddressHit) => void
}) => {
  const [term, setTerm] = useState("")
  const [hits, setHits] = useState<ReadonlyArray<AddressHit>>([])
  useEffect(() => {
    if (term.trim() === "") {
      // The same empty list when it already is: a new one re-rendered the dialog at every mount.
      setHits((current) => (current.length === 0 ? current : []))
      return
    }
    let current = true
    const timer = setTimeout(() => {
      findAddresses(term).then(
        (found) => current && setHits(found),
        () => current && setHits([])
      )
    }, SEARCH_DELAY_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [term])
  return (
    <ThemedCommandDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTerm("")
        onOpenChange(next)
      }}
      label={t.find}
      shouldFilter={false}
    >
      <Cmdk.Input value={term} onValueChange={setTerm} placeholder={t.findPlaceholder} className="palette-input" />
      <Cmdk.List className="palette-list">
        {term.trim() !== "" && <Cmdk.Empty className="palette-empty">{t.findEmpty}</Cmdk.Empty>}
        {hits.map((hit) => (
          <Cmdk.Item
            key={hit._id}
            value={hit._id}
            className="palette-item"
            onSelect={() => {
              onOpenChange(false)
              setTerm("")
              onPick(hit)
            }}
          >
            <span>
              {hit.identifier} — {hit.name}
            </span>
            <Badge variant="soft">{directories[hit.kind].title}</Badge>
          </Cmdk.Item>
        ))}
      </Cmdk.List>
    </ThemedCommandDialog>
  )
}
