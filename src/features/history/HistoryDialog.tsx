import { Badge, Button, Callout, Dialog, Flex, Select, Spinner, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { type KeyboardEvent, useRef } from "react"
import type { HistoryEntry } from "../../../contract/history.ts"
import { historyKindLabels } from "../../../contract/history-rules.ts"
import { canRestoreNow, type HistoryActor, historyOpen, historyTexts, restoreTarget } from "../../../machines/history.ts"
import { localTime } from "../../lib/dates.ts"
import { ChangesTable } from "./Changes.tsx"
import { changesBetween, fieldLabel } from "./reading.ts"
import { historyCopy } from "./texts.ts"
import "./history.css"

const summaryOf = (entry: HistoryEntry) => {
  if (entry.action.endsWith(".baseline")) return historyCopy.baseline
  if (entry.removed) return historyCopy.removed
  if (entry.action.endsWith(".create")) return historyCopy.created
  if (entry.action.endsWith(".restore")) return historyCopy.restoredEntry
  const fields = entry.changes.map((change) => fieldLabel(change.field))
  return fields.length === 0 ? historyCopy.noChanges : historyCopy.changed(fields)
}

/** Focuses `element` if it is still shown, else the dialog still open below, else nothing (a list's rows take the focus). */
const focusBack = (element: HTMLElement | null) => {
  if (element?.isConnected === true && element.closest("[role=dialog][data-state=closed]") === null) return element.focus()
  const below = [...document.querySelectorAll("[role=dialog][data-state=open]")].at(-1)
  if (below instanceof HTMLElement) below.focus()
}

const whoOf = (entry: HistoryEntry) => entry.actorName ?? entry.actorEmail ?? historyCopy.nobody
const whenOf = (at: string) => localTime(at)

/**
 * The history dialog (docs/architecture.md, "Record history"), driven by machines/history.ts:
 * the versions newest first (j/k or the arrows move, Enter or a click selects), what the selected
 * one changed, a comparison with any other version, and "Restore this version" (r) behind a
 * confirmation that shows what will change. Loaded the first time a history is opened
 * (HistoryHost.tsx holds the machine).
 */
export default function HistoryDialog({ actor }: { readonly actor: HistoryActor }) {
  const snapshot = useSelector(actor, (current) => current)
  const open = historyOpen(snapshot)
  const returnTo = useRef<HTMLElement | null>(null)
  const { record, page, selected, pair, error, restored } = snapshot.context
  const entries = page?.entries ?? []
  const entry = entries.find((candidate) => candidate.version === selected)
  const index = entries.findIndex((candidate) => candidate.version === selected)
  const busy = snapshot.matches("restoring") || snapshot.matches("preparing") || snapshot.matches("comparing")
  const confirming = snapshot.matches("confirming") || snapshot.matches("restoring")
  // The picker shows the version the selected one is compared with, once both are loaded.
  const comparedWith = confirming ? undefined : pair?.map((side) => side.version).find((version) => version !== selected)
  // On a deletion, r and the button restore the version before it.
  const target = restoreTarget(page, selected)
  const canRestore = canRestoreNow(snapshot)
  const restore = () => {
    if (target === null || !canRestore) return
    if (target !== selected) actor.send({ type: "SELECT", version: target })
    actor.send({ type: "RESTORE" })
  }

  const onKeyDown = (event: KeyboardEvent) => {
    // The confirmation has its buttons; a select's own list and a field keep their keys.
    const target = event.target instanceof HTMLElement ? event.target : null
    if (confirming || target?.closest("input, textarea, [role=combobox], [role=listbox]:not(.history-versions)") != null) return
    const move = (by: number) => {
      const next = entries[index + by]
      if (next === undefined) return
      event.preventDefault()
      actor.send({ type: "SELECT", version: next.version })
      document.getElementById(`history-version-${next.version}`)?.focus()
    }
    if (event.key === "j" || event.key === "ArrowDown") move(1)
    else if (event.key === "k" || event.key === "ArrowUp") move(-1)
    else if (event.key === "r" && canRestore) {
      event.preventDefault()
      restore()
    }
  }

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && !snapshot.matches("restoring") && actor.send({ type: "CLOSE" })}>
      <Dialog.Content
        maxWidth="960px"
        onKeyDown={onKeyDown}
        aria-describedby={undefined}
        // No trigger of its own: the focus goes back where it was when the history opened (a
        // list's row, a modal's "Show history"), or to the dialog still open below it (opened
        // from the palette, the focus was in the palette, gone since).
        onOpenAutoFocus={() => (returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null)}
        onCloseAutoFocus={(event) => {
          event.preventDefault()
          focusBack(returnTo.current)
        }}
      >
        <Dialog.Title>{record === null ? historyCopy.title : historyCopy.titleOf(historyKindLabels[record.kind], record.label)}</Dialog.Title>
        {snapshot.matches("loading") && (
          <Flex gap="2" align="center" role="status">
            <Spinner />
            <Text size="2">{historyTexts.loading}</Text>
          </Flex>
        )}
        {error !== null && (
          <Callout.Root color="red" role="alert" mb="3" size="1">
            <Callout.Text>{error}</Callout.Text>
          </Callout.Root>
        )}
        {snapshot.matches("failed") && (
          <Button mt="2" onClick={() => actor.send({ type: "RETRY" })}>
            {historyCopy.retry}
          </Button>
        )}
        {restored !== null && snapshot.matches("ready") && error === null && (
          <Callout.Root color="green" role="status" mb="3" size="1">
            <Callout.Text>{historyCopy.restoredAs(restored.from, restored.as)}</Callout.Text>
          </Callout.Root>
        )}
        {page !== null && !snapshot.matches("loading") && !confirming && (
          <Flex gap="4" className="history-panes">
            <div role="listbox" aria-label={historyCopy.versions} className="history-versions">
              {entries.map((candidate) => (
                <button
                  key={`${candidate.version}-${candidate.eventId}`}
                  id={`history-version-${candidate.version}`}
                  type="button"
                  role="option"
                  aria-selected={candidate.version === selected}
                  tabIndex={candidate.version === selected ? 0 : -1}
                  className="history-version"
                  onClick={() => actor.send({ type: "SELECT", version: candidate.version })}
                >
                  <Text as="span" size="2" weight="medium">
                    {historyCopy.versionLabel(candidate.version)}
                    {candidate.version === page.current.version && !page.current.removed && (
                      <Badge ml="2" color="green" highContrast>
                        {historyCopy.current}
                      </Badge>
                    )}
                  </Text>
                  <Text as="span" size="1" color="gray">
                    {whoOf(candidate)} · {whenOf(candidate.at)}
                  </Text>
                  <Text as="span" size="1">
                    {summaryOf(candidate)}
                  </Text>
                </button>
              ))}
            </div>
            <div className="history-detail">
              {entry !== undefined && (
                <>
                  <Text as="p" size="2" mb="2">
                    {historyCopy.madeBy(entry.version, whoOf(entry), whenOf(entry.at))}
                  </Text>
                  <ChangesTable changes={entry.changes} caption={historyCopy.whatChanged(entry.version)} />
                  <Flex gap="3" mt="3" align="end" wrap="wrap">
                    <label className="history-compare">
                      <Text as="span" size="1" color="gray">
                        {historyCopy.compareWith}
                      </Text>
                      <Select.Root
                        value={comparedWith === undefined ? "none" : String(comparedWith)}
                        onValueChange={(value) => value !== "none" && actor.send({ type: "COMPARE", with: Number(value) })}
                        disabled={busy || entries.length < 2}
                      >
                        <Select.Trigger aria-label={historyCopy.compareWith} />
                        <Select.Content>
                          <Select.Item value="none">{historyCopy.chooseVersion}</Select.Item>
                          {entries
                            .filter((other) => other.version !== entry.version)
                            .map((other) => (
                              <Select.Item key={other.version} value={String(other.version)}>
                                {historyCopy.versionLabel(other.version)}
                              </Select.Item>
                            ))}
                        </Select.Content>
                      </Select.Root>
                    </label>
                    <Button onClick={restore} disabled={!canRestore}>
                      {entry.removed && target !== null ? historyCopy.restoreBefore(target) : historyCopy.restore} <kbd>r</kbd>
                    </Button>
                  </Flex>
                  {snapshot.matches("comparing") && (
                    <Text as="p" size="2" mt="3" role="status">
                      {historyTexts.comparing}
                    </Text>
                  )}
                  {pair !== null && snapshot.matches("ready") && (
                    <div className="history-comparison">
                      <Text as="p" size="2" mt="3" mb="2" weight="medium">
                        {historyCopy.comparing(pair[0].version, pair[1].version)}
                      </Text>
                      <ChangesTable changes={changesBetween(pair[0], pair[1])} caption={historyCopy.comparing(pair[0].version, pair[1].version)} />
                    </div>
                  )}
                </>
              )}
            </div>
          </Flex>
        )}
        {confirming && pair !== null && (
          <div role="group" aria-label={historyCopy.confirmTitle(selected ?? 0)}>
            <Text as="p" size="3" weight="medium" mb="2">
              {historyCopy.confirmTitle(selected ?? 0)}
            </Text>
            <Text as="p" size="2" mb="2">
              {historyCopy.confirmText}
            </Text>
            <ChangesTable changes={changesBetween(pair[0], pair[1])} caption={historyCopy.willChange} />
            <Flex gap="3" mt="4" justify="end">
              {/* A confirmation opens on its safe button: Enter at once keeps the record as it is. */}
              <Button autoFocus variant="soft" color="gray" disabled={snapshot.matches("restoring")} onClick={() => actor.send({ type: "CANCEL" })}>
                {historyCopy.cancel}
              </Button>
              <Button disabled={snapshot.matches("restoring")} onClick={() => actor.send({ type: "CONFIRM" })}>
                {snapshot.matches("restoring") ? historyTexts.restoring : historyCopy.confirm}
              </Button>
            </Flex>
          </div>
        )}
        <Text as="p" size="1" color="gray" mt="3">
          {historyCopy.hint}
        </Text>
      </Dialog.Content>
    </Dialog.Root>
  )
}
