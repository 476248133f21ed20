import { Button, Callout, Flex } from "@radix-ui/themes"
import { failureOf } from "../../../contract/call-failure.ts"
import { loadLastChange, restoreVersion } from "../../api/history.ts"
import { historyKindLabels, historyMessages } from "../../../contract/history-rules.ts"
import { historyActionLabel, type HistoryTarget } from "../../lib/history.ts"

const undoTexts = {
  nothing: "Nothing of yours to undo.",
  /** Which record, and what became of it: "Undone your change to listing "Pi Lagos": back as it was at version 1 (now version 3)." */
  undone: (kind: string, label: string, version: number, now: number) =>
    `Undone your change to ${kind.toLowerCase()} "${label}": back as it was at version ${version} (now version ${now}).`,
  failed: "Couldn't undo your last change",
  dismiss: "Dismiss"
} as const

export interface UndoNotice {
  readonly text: string
  readonly target?: HistoryTarget
  readonly refused?: boolean
}

/**
 * `z` anywhere (src/features/history/HistoryHost.tsx): the person's last change of a record is
 * undone by restoring the version before it, at the version it made; if someone changed the
 * record since, it says who and offers the history. Loaded with the first undo: the first
 * screen does not carry it.
 */
export const undoLast = async (recordChanged: () => void): Promise<UndoNotice> => {
  try {
    const last = await loadLastChange()
    if (last === null) return { text: undoTexts.nothing }
    const target = { kind: last.kind, id: last.id, label: historyKindLabels[last.kind] }
    if (last.version <= 1) return { text: historyMessages.createdLast, target }
    try {
      const restored = await restoreVersion(last.kind, last.id, last.version - 1, last.version)
      recordChanged()
      return { text: undoTexts.undone(historyKindLabels[last.kind], last.label, last.version - 1, restored.version), target }
    } catch (error) {
      return { text: `${undoTexts.failed}: ${failureOf(error).message}`, target, refused: true }
    }
  } catch (error) {
    return { text: `${undoTexts.failed}: ${failureOf(error).message}` }
  }
}

/** What the undo did, with the record's history and Dismiss; a refusal stays until dismissed. */
export const UndoNoticeView = ({
  notice,
  show,
  dismiss
}: {
  readonly notice: UndoNotice
  readonly show: (target: HistoryTarget) => void
  readonly dismiss: () => void
}) => (
  <div className="history-undo-notice">
    <Callout.Root color={notice.refused === true ? "red" : "gray"} role={notice.refused === true ? "alert" : "status"} size="1">
      <Callout.Text>{notice.text}</Callout.Text>
      <Flex gap="2" mt="1">
        {notice.target !== undefined && (
          <Button
            size="1"
            variant="soft"
            onClick={() => {
              if (notice.target !== undefined) show(notice.target)
              dismiss()
            }}
          >
            {historyActionLabel}
          </Button>
        )}
        <Button size="1" variant="soft" color="gray" onClick={dismiss}>
          {undoTexts.dismiss}
        </Button>
      </Flex>
    </Callout.Root>
  </div>
)
