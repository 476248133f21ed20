import { Badge, Button, Dialog, Flex } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useWatch } from "react-hook-form"
import type { ActorRefFrom } from "xstate"
import type { FieldIssue } from "../../../contract/common.ts"
import type { ScamReport } from "../../../contract/scam-reports.ts"
import { scamTypeLabels } from "../../../contract/scam-report-rules.ts"
import { savingNotes, type scamReportMachine, triageErrors } from "../../../machines/scam-report.ts"
import { useContractForm, useRefusal } from "../../lib/form/use-contract-form.ts"
import { ContractFormShell, MachineRefusal, TextInput } from "../../ui/FormField.tsx"
import { shortDate } from "../../lib/dates.ts"
import { priorityColors, reportLabel, scamTexts as t, statusColors } from "./texts.ts"
import { HistoryButton } from "../../ui/HistoryButton.tsx"
import { LinkedText } from "../../ui/LinkedText.tsx"

/** The notes, on the one form pattern (docs/architecture.md, "Forms"): checked against the contract before they are saved. */
const NotesForm = ({
  details,
  saving,
  error,
  issues,
  onSave
}: {
  readonly details: ScamReport
  readonly saving: boolean
  readonly error: string | null
  readonly issues: ReadonlyArray<FieldIssue>
  readonly onSave: (notes: string) => void
}) => {
  const contract = useContractForm<{ readonly notes: string }, { readonly notes: string }>({
    values: { notes: details.adminNotes },
    schema: () => import("../../../contract/scam-reports.ts").then((module) => module.ScamNotesInput),
    toPayload: (values) => ({ notes: values.notes.trim() }),
    send: (checked) => onSave(checked.notes),
    failed: triageErrors.notes
  })
  const typed = useWatch({ control: contract.form.control, name: "notes" })
  // A refusal's fields, from the machine's save: under the notes; the alert only for the rest.
  const stray = useRefusal(contract, issues)
  return (
    <ContractFormShell form={contract}>
      <div
        onKeyDown={(event) => {
          if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
            event.preventDefault()
            contract.submit()
          }
        }}
      >
        <TextInput name="notes" label={t.adminNotes} placeholder={t.notesPlaceholder} multiline />
      </div>
      <MachineRefusal error={error} issues={issues} stray={stray} />
      <Flex gap="3" mt="4" justify="end">
        <HistoryButton kind="scam-report" id={details._id} label={reportLabel(details)} disabled={saving} />
        <Dialog.Close>
          <Button type="button" variant="soft" color="gray" disabled={saving}>
            {t.close}
          </Button>
        </Dialog.Close>
        <Button type="submit" disabled={saving || typed.trim() === details.adminNotes}>
          {saving ? t.savingNotes : t.saveNotes}
        </Button>
      </Flex>
    </ContractFormShell>
  )
}

/**
 * A report's Details modal: the reporter's fields, the client address and the admin notes. It
 * opens with the cursor in the notes, where typing starts; Ctrl+Enter saves them.
 */
export const ScamReportDetails = ({ details, triage }: { readonly details: ScamReport | null; readonly triage: ActorRefFrom<typeof scamReportMachine> }) => {
  const saving = useSelector(triage, savingNotes)
  const error = useSelector(triage, (snapshot) => snapshot.context.notesError)
  const issues = useSelector(triage, (snapshot) => snapshot.context.notesIssues)
  const onSave = (notes: string) => triage.send({ type: "SAVE_NOTES", notes })
  const onClose = () => triage.send({ type: "CLOSE" })
  return (
    <Dialog.Root open={details !== null} onOpenChange={(next) => !next && !saving && onClose()}>
      <Dialog.Content
        maxWidth="620px"
        onOpenAutoFocus={(event) => {
          event.preventDefault()
          ;(event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>("textarea[name='notes']")?.focus()
        }}
      >
        {details !== null && (
          <>
            <Dialog.Title>{t.title8(details._id)}</Dialog.Title>
            <Dialog.Description size="2" color="gray">
              {scamTypeLabels[details.scamType]} · {t.reported(shortDate(details.createdAt))}
            </Dialog.Description>
            <Flex gap="2" my="3">
              <Badge highContrast color={statusColors[details.status]}>
                {t.statuses[details.status]}
              </Badge>
              <Badge highContrast color={priorityColors[details.priority]}>
                {t.priorities[details.priority]}
              </Badge>
            </Flex>
            <dl className="scam-facts">
              <dt>{t.type}</dt>
              <dd>{scamTypeLabels[details.scamType]}</dd>
              <dt>Description</dt>
              <dd className="scam-description">{details.description}</dd>
              {details.evidence !== "" && (
                <>
                  <dt>{t.evidence}</dt>
                  <dd className="scam-description">
                    <LinkedText text={details.evidence} />
                  </dd>
                </>
              )}
              {details.walletAddress !== "" && (
                <>
                  <dt>{t.wallet}</dt>
                  <dd className="scam-wallet">{details.walletAddress}</dd>
                </>
              )}
              {details.reporterContact !== "" && (
                <>
                  <dt>{t.contact}</dt>
                  <dd>{details.reporterContact}</dd>
                </>
              )}
              <dt>{t.ipAddress}</dt>
              <dd>{details.ipAddress === "" ? "–" : details.ipAddress}</dd>
            </dl>
            <NotesForm key={details._id} details={details} saving={saving} error={error} issues={issues} onSave={onSave} />
          </>
        )}
      </Dialog.Content>
    </Dialog.Root>
  )
}
