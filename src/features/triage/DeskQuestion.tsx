import { Button, Dialog, Flex, Text } from "@radix-ui/themes"
import { type FormEvent, useState } from "react"
import type { TriageItem, TriageOwnerEntry } from "../../../contract/triage.ts"
import type { Question } from "../../../machines/triage-desk.ts"
import { inputDateTime } from "../../lib/dates.ts"
import { itemWords } from "./TriageCard.tsx"
import { triageTexts as t } from "./texts.ts"

/** The reasons typed lately, newest first, kept in this browser: the dialog offers them again. */
const REASONS_KEY = "triage-reasons"
const MAX_REASONS = 5

export const reasonsUsed = (): ReadonlyArray<string> => {
  try {
    const kept = JSON.parse(localStorage.getItem(REASONS_KEY) ?? "[]") as unknown
    return Array.isArray(kept) ? kept.filter((reason): reason is string => typeof reason === "string").slice(0, MAX_REASONS) : []
  } catch {
    return []
  }
}

export const keepReason = (reason: string): void => {
  if (reason === "") return
  try {
    localStorage.setItem(REASONS_KEY, JSON.stringify([reason, ...reasonsUsed().filter((kept) => kept !== reason)].slice(0, MAX_REASONS)))
  } catch {
    // A full or refused storage keeps nothing: the next dialog offers fewer.
  }
}

/** The snooze's quick choices, on the viewer's clock: an hour on, tomorrow 9:00, next Monday 9:00. */
export const snoozeChoices = (now: Date): ReadonlyArray<readonly [label: string, at: Date]> => {
  const nine = (days: number) => {
    const at = new Date(now)
    at.setDate(at.getDate() + days)
    at.setHours(9, 0, 0, 0)
    return at
  }
  const toMonday = ((8 - now.getDay()) % 7) + (now.getDay() === 1 ? 7 : 0)
  return [
    [t.snoozeChoices.hour, new Date(now.getTime() + 3_600_000)],
    [t.snoozeChoices.tomorrow, nine(1)],
    [t.snoozeChoices.week, nine(toMonday === 0 ? 7 : toMonday)]
  ]
}

/**
 * The desk's one question at a time (machines/triage-desk.ts): a decision's reason (optional, the
 * reasons used lately offered), until when to snooze (1–3 pick a choice), whom to assign, which
 * item of the same kind it duplicates. Enter answers, Escape leaves with nothing done.
 */
export const DeskQuestion = ({
  question,
  item,
  title,
  owners,
  others,
  onAnswer,
  onCancel
}: {
  readonly question: Question | null
  readonly item: TriageItem | null
  /** The decision a reason is for. */
  readonly title: string
  readonly owners: ReadonlyArray<TriageOwnerEntry>
  /** The items of the same kind on this page, for a duplicate. */
  readonly others: ReadonlyArray<TriageItem>
  readonly onAnswer: (value: string) => void
  readonly onCancel: () => void
}) => {
  const [value, setValue] = useState("")
  const [asked, setAsked] = useState<string | null>(null)
  const key = question === null || item === null ? null : `${question}:${item._id}`
  if (key !== asked) {
    setAsked(key)
    setValue(question === "owner" ? (owners[0]?._id ?? "") : question === "duplicate" ? (others[0]?._id ?? "") : "")
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onAnswer(question === "snooze" && value !== "" ? new Date(value).toISOString() : value)
  }
  const heading = question === "reason" ? t.reasonTitle(title) : question === "snooze" ? t.snoozeTitle : question === "owner" ? t.ownerTitle : t.duplicateTitle
  const choices = question === "snooze" ? snoozeChoices(new Date()) : []
  return (
    <Dialog.Root open={question !== null && item !== null} onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Content maxWidth="480px" aria-describedby={undefined}>
        <Dialog.Title>{heading}</Dialog.Title>
        {item !== null && (
          <Text as="p" size="2" color="gray" mb="3">
            {itemWords(item).title}
          </Text>
        )}
        <form
          onSubmit={submit}
          onKeyDown={(event) => {
            // Enter on a list of names answers, as in a field (a select submits nothing by itself).
            if (event.key === "Enter" && event.target instanceof HTMLSelectElement) {
              event.preventDefault()
              if (value !== "") onAnswer(value)
              return
            }
            // 1–3: a snooze's quick choice, one key.
            const choice =
              question === "snooze" && /^[1-3]$/.test(event.key) && !(event.target instanceof HTMLInputElement) ? choices[Number(event.key) - 1] : undefined
            if (choice === undefined) return
            event.preventDefault()
            onAnswer(choice[1].toISOString())
          }}
        >
          <Flex direction="column" gap="3">
            {question === "reason" && (
              <>
                <label htmlFor="desk-reason">
                  <Text size="2" weight="medium">
                    {t.reasonLabel}
                  </Text>
                </label>
                <input id="desk-reason" className="native-input" autoFocus value={value} maxLength={5000} onChange={(event) => setValue(event.target.value)} />
                {reasonsUsed().length > 0 && (
                  <Flex gap="2" wrap="wrap" aria-label={t.reasonsUsed} role="group">
                    {reasonsUsed().map((reason) => (
                      <Button key={reason} type="button" size="1" variant="soft" color="gray" onClick={() => onAnswer(reason)}>
                        {reason}
                      </Button>
                    ))}
                  </Flex>
                )}
              </>
            )}
            {question === "snooze" && (
              <>
                <Flex gap="2" wrap="wrap">
                  {choices.map(([label, at], index) => (
                    <Button key={label} type="button" variant="soft" autoFocus={index === 0} onClick={() => onAnswer(at.toISOString())}>
                      {index + 1} · {label}
                    </Button>
                  ))}
                </Flex>
                <label htmlFor="desk-snooze">
                  <Text size="2" weight="medium">
                    {t.snoozeLabel}
                  </Text>
                </label>
                <input
                  id="desk-snooze"
                  className="native-input"
                  type="datetime-local"
                  min={inputDateTime(new Date().toISOString())}
                  value={value}
                  onChange={(event) => setValue(event.target.value)}
                />
              </>
            )}
            {question === "owner" && (
              <>
                <label htmlFor="desk-owner">
                  <Text size="2" weight="medium">
                    {t.ownerLabel}
                  </Text>
                </label>
                <select id="desk-owner" className="native-select" autoFocus value={value} onChange={(event) => setValue(event.target.value)}>
                  {owners.map((owner) => (
                    <option key={owner._id} value={owner._id}>
                      {owner.name === null || owner.name === "" ? owner.email : `${owner.name} (${owner.email})`}
                    </option>
                  ))}
                </select>
              </>
            )}
            {question === "duplicate" && (
              <>
                <label htmlFor="desk-duplicate">
                  <Text size="2" weight="medium">
                    {t.duplicateLabel}
                  </Text>
                </label>
                {others.length === 0 ? (
                  <Text size="2" color="gray">
                    {t.duplicateNone}
                  </Text>
                ) : (
                  <select id="desk-duplicate" className="native-select" autoFocus value={value} onChange={(event) => setValue(event.target.value)}>
                    {others.map((other) => (
                      <option key={other._id} value={other._id}>
                        {itemWords(other).title}
                      </option>
                    ))}
                  </select>
                )}
              </>
            )}
            <Flex gap="3" justify="end">
              <Dialog.Close>
                <Button type="button" variant="soft" color="gray">
                  {t.cancel}
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={question !== "reason" && value === ""}>
                {t.confirm}
              </Button>
            </Flex>
          </Flex>
        </form>
      </Dialog.Content>
    </Dialog.Root>
  )
}
