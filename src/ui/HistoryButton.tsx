import { Button } from "@radix-ui/themes"
import { useMemo } from "react"
import type { HistoryKind } from "../../contract/history-rules.ts"
import { type Command, useRegisterCommands } from "../lib/commands.tsx"
import { historyActionLabel, useHistory } from "../lib/history.ts"

/**
 * "Show history" for the record a modal shows (an address, a report, an inquiry, a listing): a
 * button among the modal's, and the palette's command while the modal is open. The history opens
 * over the modal; closing it gives the keyboard back to the modal (docs/architecture.md, "Record
 * history"). A list's rows have `h` for the same (src/lib/list/use-list-screen.ts).
 */
export const HistoryButton = ({
  kind,
  id,
  label,
  disabled = false
}: {
  readonly kind: HistoryKind
  readonly id: string
  readonly label: string
  readonly disabled?: boolean
}) => {
  const { show } = useHistory()
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      { id: "history:open-shown", label: historyActionLabel, group: "History", guard: () => !disabled, run: () => show({ kind, id, label }) }
    ],
    [kind, id, label, disabled, show]
  )
  useRegisterCommands(commands)
  return (
    <Button type="button" variant="soft" color="gray" disabled={disabled} onClick={() => show({ kind, id, label })}>
      {historyActionLabel}
    </Button>
  )
}
