import { Button, Callout, Dialog, Flex, Spinner, Text } from "@radix-ui/themes"
import { type KeyboardEvent, useEffect, useState } from "react"
import type { RemovedRecord } from "../../../contract/history.ts"
import type { HistoryKind } from "../../../contract/history-rules.ts"
import { historyKindLabels, historyKindPlurals } from "../../../contract/history-rules.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { loadRemoved, restoreVersion } from "../../api/history.ts"
import { localTime } from "../../lib/dates.ts"
import type { HistoryTarget } from "../../lib/history.ts"
import { removedCopy } from "./texts.ts"
import "./history.css"

type Notice = { readonly text: string; readonly failed: boolean }

/**
 * The records of a kind that were deleted and not brought back (the palette's "Deleted …" on a
 * list), the first current as soon as they arrive: `r` (or Restore) brings the current one back
 * as it was before its removal; choosing one opens its history, where any earlier version can be
 * restored (docs/architecture.md, "Record history").
 */
export default function RemovedDialog({
  kind,
  onClose,
  onChoose,
  onRestored
}: {
  readonly kind: HistoryKind
  readonly onClose: () => void
  readonly onChoose: (target: HistoryTarget) => void
  /** A record came back: the screen showing its kind reads its list again. */
  readonly onRestored: () => void
}) {
  const [records, setRecords] = useState<ReadonlyArray<RemovedRecord> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<Notice | null>(null)
  const [busy, setBusy] = useState(false)
  const [index, setIndex] = useState(0)
  useEffect(() => {
    let live = true
    loadRemoved(kind).then(
      (found) => live && setRecords(found),
      (failure: unknown) => live && setError(`${removedCopy.failed}: ${failureOf(failure).message}`)
    )
    return () => {
      live = false
    }
  }, [kind])
  // Keys act on the list the moment it shows: its current row has the focus, as on a list screen.
  useEffect(() => {
    if (records !== null && records.length > 0) document.getElementById(`removed-${Math.min(index, records.length - 1)}`)?.focus()
  }, [records, index])
  const choose = (record: RemovedRecord) => onChoose({ kind, id: record.id, label: record.label })
  const current = records?.[index]
  const restore = async (record: RemovedRecord) => {
    setBusy(true)
    setNotice(null)
    try {
      const back = await restoreVersion(kind, record.id, record.version - 1, record.version)
      setRecords((now) => now?.filter((other) => other.id !== record.id) ?? null)
      setIndex((at) => Math.max(0, Math.min(at, (records?.length ?? 1) - 2)))
      setNotice({ text: removedCopy.restored(record.label, back.version), failed: false })
      onRestored()
    } catch (failure) {
      setNotice({ text: `${removedCopy.restoreFailed(record.label)}: ${failureOf(failure).message}`, failed: true })
    } finally {
      setBusy(false)
    }
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (records === null || records.length === 0 || event.ctrlKey || event.metaKey || event.altKey) return
    const move = (by: number) => {
      event.preventDefault()
      setIndex(Math.min(records.length - 1, Math.max(0, index + by)))
    }
    if (event.key === "j" || event.key === "ArrowDown") move(1)
    else if (event.key === "k" || event.key === "ArrowUp") move(-1)
    else if (event.key === "r" && current !== undefined && !busy) {
      event.preventDefault()
      void restore(current)
    }
  }
  const title = removedCopy.title(historyKindPlurals[kind])
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content maxWidth="560px" onKeyDown={onKeyDown} aria-describedby={undefined}>
        <Dialog.Title>{title}</Dialog.Title>
        {records === null && error === null && (
          <Flex gap="2" align="center" role="status">
            <Spinner />
            <Text size="2">{removedCopy.loading}</Text>
          </Flex>
        )}
        {error !== null && (
          <Callout.Root color="red" role="alert" size="1">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        {notice !== null && (
          <Callout.Root color={notice.failed ? "red" : "green"} role={notice.failed ? "alert" : "status"} size="1" mb="3">
            <Callout.Text>{notice.text}</Callout.Text>
          </Callout.Root>
        )}
        {records !== null && records.length === 0 && (
          <Text as="p" size="2" color="gray">
            {removedCopy.none(historyKindLabels[kind])}
          </Text>
        )}
        {records !== null && records.length > 0 && (
          <div role="listbox" aria-label={title} className="history-versions">
            {records.map((record, at) => (
              <button
                key={record.id}
                id={`removed-${at}`}
                type="button"
                role="option"
                aria-selected={at === index}
                tabIndex={at === index ? 0 : -1}
                className="history-version"
                onFocus={() => setIndex(at)}
                onClick={() => choose(record)}
              >
                <Text as="span" size="2" weight="medium">
                  {record.label}
                </Text>
                <Text as="span" size="1" color="gray">
                  {removedCopy.removedBy(record.by ?? removedCopy.nobody, localTime(record.at))}
                </Text>
              </button>
            ))}
          </div>
        )}
        <Flex justify="between" align="center" gap="3" mt="3" wrap="wrap">
          <Text as="p" size="1" color="gray">
            {removedCopy.hint}
          </Text>
          <Flex gap="2">
            {current !== undefined && (
              <Button variant="soft" disabled={busy} onClick={() => void restore(current)}>
                {busy ? removedCopy.restoring : removedCopy.restore} <kbd>r</kbd>
              </Button>
            )}
            <Dialog.Close>
              <Button variant="soft" color="gray">
                {removedCopy.close}
              </Button>
            </Dialog.Close>
          </Flex>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  )
}
