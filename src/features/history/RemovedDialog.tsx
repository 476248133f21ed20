import { Button, Callout, Dialog, Flex, Spinner, Text } from "@radix-ui/themes"
import { type KeyboardEvent, useEffect, useState } from "react"
import type { RemovedRecord } from "../../../contract/history.ts"
import type { HistoryKind } from "../../../contract/history-rules.ts"
import { historyKindLabels } from "../../../contract/history-rules.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { loadRemoved } from "../../api/history.ts"
import type { HistoryTarget } from "../../lib/history.ts"
import { removedCopy } from "./texts.ts"
import "./history.css"

/**
 * The records of a kind that were deleted and not brought back (the palette's "Deleted …" on a
 * list): choosing one opens its history, where the version before its removal can be restored
 * (docs/architecture.md, "Record history").
 */
export default function RemovedDialog({
  kind,
  onClose,
  onChoose
}: {
  readonly kind: HistoryKind
  readonly onClose: () => void
  readonly onChoose: (target: HistoryTarget) => void
}) {
  const [records, setRecords] = useState<ReadonlyArray<RemovedRecord> | null>(null)
  const [error, setError] = useState<string | null>(null)
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
  const choose = (record: RemovedRecord) => onChoose({ kind, id: record.id, label: record.label })
  const onKeyDown = (event: KeyboardEvent) => {
    if (records === null || records.length === 0) return
    const move = (by: number) => {
      const next = Math.min(records.length - 1, Math.max(0, index + by))
      event.preventDefault()
      setIndex(next)
      document.getElementById(`removed-${next}`)?.focus()
    }
    if (event.key === "j" || event.key === "ArrowDown") move(1)
    else if (event.key === "k" || event.key === "ArrowUp") move(-1)
  }
  const label = historyKindLabels[kind]
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Content maxWidth="560px" onKeyDown={onKeyDown} aria-describedby={undefined}>
        <Dialog.Title>{removedCopy.title(label)}</Dialog.Title>
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
        {records !== null && records.length === 0 && (
          <Text as="p" size="2" color="gray">
            {removedCopy.none(label)}
          </Text>
        )}
        {records !== null && records.length > 0 && (
          <div role="listbox" aria-label={removedCopy.title(label)} className="history-versions">
            {records.map((record, at) => (
              <button
                key={record.id}
                id={`removed-${at}`}
                type="button"
                role="option"
                aria-selected={at === index}
                tabIndex={at === index ? 0 : -1}
                className="history-version"
                onClick={() => choose(record)}
              >
                <Text as="span" size="2" weight="medium">
                  {record.label}
                </Text>
                <Text as="span" size="1" color="gray">
                  {removedCopy.removedBy(record.by ?? removedCopy.nobody, new Date(record.at).toLocaleString())}
                </Text>
              </button>
            ))}
          </div>
        )}
        <Flex justify="between" align="center" mt="3">
          <Text as="p" size="1" color="gray">
            {removedCopy.hint}
          </Text>
          <Dialog.Close>
            <Button variant="soft" color="gray">
              {removedCopy.close}
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  )
}
