import { Button, Dialog, Flex, Text, TextField } from "@radix-ui/themes"
import { useId, useState } from "react"
import type { TriageItem, TriageOwnerEntry } from "../../../contract/triage.ts"
import type { Question } from "../../../machines/triage-desk.ts"
import { useContractForm, useContractFormContext } from "../../lib/form/use-contract-form.ts"
import { ContractFormShell, FormBanner, FormField, TextInput } from "../../ui/FormField.tsx"
import { itemWords } from "./TriageCard.tsx"
import { triageTexts as t } from "./texts.ts"
import { colleagueChoice } from "../../lib/people.ts"

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

/** The field each question fills: the name of the change's part it answers (contract/triage.ts, `DeskAnswers`). */
const fieldOf = { reason: "reason", snooze: "snoozedUntil", owner: "owner", duplicate: "duplicateOf" } as const satisfies Record<Question, string>

const headingOf = (question: Question, title: string) =>
  question === "reason" ? t.reasonTitle(title) : question === "snooze" ? t.snoozeTitle : question === "owner" ? t.ownerTitle : t.duplicateTitle

/** A list of names to choose from, as a field of the form around it. */
const ChoiceField = ({
  name,
  label,
  choices
}: {
  readonly name: string
  readonly label: string
  readonly choices: ReadonlyArray<readonly [value: string, words: string]>
}) => {
  const { form } = useContractFormContext()
  return (
    <FormField name={name} label={label} required>
      {(control) => (
        <select {...control} className="native-select" autoFocus {...form.register(name)}>
          {choices.map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
      )}
    </FormField>
  )
}

/** What a search for the original matches: its title's words, or the end of its id. */
const matches = (item: TriageItem, search: string) => {
  const words = search.trim().toLowerCase()
  return words === "" || itemWords(item).title.toLowerCase().includes(words) || item._id.toLowerCase().endsWith(words.replace(/^#/, ""))
}

/**
 * Which item it duplicates: a search over the items offered, the likeliest first (the same wallet,
 * the same name), and nothing chosen until the person chooses: a quick Enter marks nothing, and
 * says under the list that an item is to be chosen. ArrowDown goes from the search into the list,
 * onto its likeliest item.
 */
const DuplicateField = ({ name, others }: { readonly name: string; readonly others: ReadonlyArray<TriageItem> }) => {
  const { form } = useContractFormContext()
  const [search, setSearch] = useState("")
  const searchId = useId()
  const shown = others.filter((other) => matches(other, search))
  const chosen = form.watch(name) as string
  const listed = chosen === "" || shown.some((other) => other._id === chosen) ? shown : [...others.filter((other) => other._id === chosen), ...shown]
  return (
    <Flex direction="column" gap="2">
      <Text as="label" size="2" weight="medium" htmlFor={searchId}>
        {t.duplicateSearch}
      </Text>
      <TextField.Root
        id={searchId}
        value={search}
        autoFocus
        autoComplete="off"
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== "ArrowDown") return
          event.preventDefault()
          // Into the list, on its likeliest item when none is chosen yet.
          const first = listed[0]
          if (chosen === "" && first !== undefined) form.setValue(name, first._id, { shouldDirty: true })
          event.currentTarget.closest("form")?.querySelector("select")?.focus()
        }}
      />
      <FormField name={name} label={t.duplicateLabel} required>
        {(control) => (
          <select {...control} className="native-select" size={Math.min(8, Math.max(2, listed.length))} {...form.register(name)}>
            {listed.map((other) => (
              <option key={other._id} value={other._id}>
                {itemWords(other).title} · #{other._id.slice(-8)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      {listed.length === 0 && (
        <Text size="2" color="gray">
          {t.duplicateNoMatch}
        </Text>
      )}
    </Flex>
  )
}

interface Asked {
  readonly question: Question
  readonly item: TriageItem
  /** The decision a reason is for. */
  readonly title: string
  readonly owners: ReadonlyArray<TriageOwnerEntry>
  /** The items of the same kind on this page, for a duplicate. */
  readonly others: ReadonlyArray<TriageItem>
  readonly onAnswer: (value: string) => void
  readonly onCancel: () => void
}

/** One question's form, on the one form pattern: the answer is checked against the contract, then given to the desk. */
const AnswerForm = ({ question, title, owners, others, onAnswer, onCancel }: Asked) => {
  const name = fieldOf[question]
  // An owner's list starts on the first name; a duplicate's on nothing chosen.
  const first = question === "owner" ? (owners[0]?._id ?? "") : ""
  const contract = useContractForm<Readonly<Record<string, string>>, Readonly<Record<string, string>>>({
    values: { [name]: first },
    schema: () => import("../../../contract/triage.ts").then((module) => module.DeskAnswers[question] as never),
    // A time as the browser's field holds it (local, no zone) becomes an instant; nothing typed stays nothing.
    toPayload: (values) => {
      const typed = (values[name] ?? "").trim()
      return { [name]: question === "snooze" && typed !== "" && !Number.isNaN(Date.parse(typed)) ? new Date(typed).toISOString() : typed }
    },
    send: (payload) => onAnswer(payload[name] ?? ""),
    failed: t.failed
  })
  const choices = question === "snooze" ? snoozeChoices(new Date()) : []
  const reasons = question === "reason" ? reasonsUsed() : []
  return (
    <ContractFormShell form={contract} label={headingOf(question, title)}>
      <div
        onKeyDown={(event) => {
          // Enter on a list of names answers, as in a field (a select submits nothing by itself).
          if (event.key === "Enter" && event.target instanceof HTMLSelectElement) {
            event.preventDefault()
            contract.submit()
            return
          }
          // 1–3: a snooze's quick choice, one key.
          const choice = /^[1-3]$/.test(event.key) && !(event.target instanceof HTMLInputElement) ? choices[Number(event.key) - 1] : undefined
          if (choice === undefined) return
          event.preventDefault()
          onAnswer(choice[1].toISOString())
        }}
      >
        <Flex direction="column" gap="3">
          {question === "reason" && (
            <>
              <TextInput name={name} label={t.reasonLabel} autoFocus />
              {reasons.length > 0 && (
                <Flex gap="2" wrap="wrap" aria-label={t.reasonsUsed} role="group">
                  {reasons.map((reason) => (
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
              <TextInput name={name} label={t.snoozeLabel} kind="datetime" />
            </>
          )}
          {question === "owner" && (
            <ChoiceField name={name} label={t.ownerLabel} choices={owners.map((owner) => [owner._id, colleagueChoice(owner)] as const)} />
          )}
          {question === "duplicate" &&
            (others.length === 0 ? (
              <Text size="2" color="gray">
                {t.duplicateNone}
              </Text>
            ) : (
              <DuplicateField name={name} others={others} />
            ))}
          <FormBanner />
          <Flex gap="3" justify="end">
            <Button type="button" variant="soft" color="gray" onClick={onCancel}>
              {t.cancel}
            </Button>
            <Button type="submit" disabled={question === "duplicate" && others.length === 0}>
              {t.confirm}
            </Button>
          </Flex>
        </Flex>
      </div>
    </ContractFormShell>
  )
}

/**
 * The desk's one question at a time (machines/triage-desk.ts): a decision's reason (optional, the
 * reasons used lately offered), until when to snooze (1–3 pick a choice), whom to assign, which
 * item of the same kind it duplicates. Enter answers, Escape leaves with nothing done.
 */
export const DeskQuestion = ({
  question,
  item,
  ...asked
}: Omit<Asked, "question" | "item"> & { readonly question: Question | null; readonly item: TriageItem | null }) => (
  <Dialog.Root open={question !== null && item !== null} onOpenChange={(open) => !open && asked.onCancel()}>
    <Dialog.Content maxWidth="480px" aria-describedby={undefined}>
      <Dialog.Title>{question === null ? "" : headingOf(question, asked.title)}</Dialog.Title>
      {item !== null && (
        <Text as="p" size="2" color="gray" mb="3">
          {itemWords(item).title}
        </Text>
      )}
      {question !== null && item !== null && <AnswerForm key={`${question}:${item._id}`} question={question} item={item} {...asked} />}
    </Dialog.Content>
  </Dialog.Root>
)
