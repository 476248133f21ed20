import { Button, Dialog, Flex, Text } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import type { ActorRefFrom } from "xstate"
import type { AdvertisingInquiry } from "../../../contract/advertising.ts"
import type { FieldIssue } from "../../../contract/common.ts"
import type { InquiryStatus } from "../../../contract/advertising-rules.ts"
import { detailOpen, type inquiryMachine, inquiryTexts, movesFor } from "../../../machines/inquiry.ts"
import { useContractForm, useRefusal } from "../../lib/form/use-contract-form.ts"
import { ContractFormShell, MachineRefusal, TextInput } from "../../ui/FormField.tsx"
import { HistoryButton } from "../../ui/HistoryButton.tsx"
import { StatusBadge } from "./StatusBadge.tsx"
import { advertisingTexts as t } from "./texts.ts"

/**
 * The admin notes and the moves, on the one form pattern (docs/architecture.md, "Forms"): the
 * notes are checked against the contract before a move is sent, and the machine follows them as
 * they are typed (it sends them with the move).
 */
interface NotesProps {
  readonly notes: string
  readonly updating: boolean
  readonly error: string | null
  readonly issues: ReadonlyArray<FieldIssue>
  readonly moves: ReadonlyArray<InquiryStatus>
  /** The inquiry shown, for its history. */
  readonly inquiry: AdvertisingInquiry
  readonly onNotes: (notes: string) => void
  readonly onMove: (status: InquiryStatus) => void
}

const NotesForm = ({ notes, updating, error, issues, moves, inquiry, onNotes, onMove }: NotesProps) => {
  const contract = useContractForm<{ readonly adminNotes: string }, unknown>({
    values: { adminNotes: notes },
    schema: () => import("../../../contract/advertising.ts").then((module) => module.InquiryNotesInput),
    toPayload: (values) => ({ adminNotes: values.adminNotes }),
    onChange: (values) => onNotes(values.adminNotes ?? ""),
    send: (_checked, status) => {
      if (status !== undefined) onMove(status as InquiryStatus)
    },
    failed: inquiryTexts.failed
  })
  // A refusal's fields, from the machine's move: under the notes; the alert only for the rest.
  const stray = useRefusal(contract, issues)
  return (
    <ContractFormShell form={contract}>
      <div
        onKeyDown={(event) => {
          const first = moves[0]
          if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey) || first === undefined) return
          event.preventDefault()
          contract.submitWith(first)
        }}
      >
        <TextInput name="adminNotes" label={t.adminNotes} multiline disabled={updating} />
      </div>
      <MachineRefusal error={error} issues={issues} stray={stray} />
      <Flex gap="3" mt="4" justify="end" wrap="wrap">
        <HistoryButton kind="inquiry" id={inquiry._id} label={inquiry.companyName} disabled={updating} />
        <Dialog.Close>
          <Button type="button" variant="soft" color="gray" disabled={updating}>
            {t.close}
          </Button>
        </Dialog.Close>
        {updating && (
          <Button type="button" disabled>
            {inquiryTexts.updating}
          </Button>
        )}
        {moves.map((status) => (
          <Button
            key={status}
            type="button"
            color={status === "rejected" ? "red" : status === "converted" ? "green" : undefined}
            onClick={() => contract.submitWith(status)}
          >
            {t.moves[status] ?? status}
          </Button>
        ))}
      </Flex>
    </ContractFormShell>
  )
}

/**
 * An inquiry's detail modal (docs/product-spec.md §2): its facts, the admin notes and the moves
 * the inquiry machine offers. It opens with the cursor in the notes, where typing starts;
 * Ctrl+Enter there makes the first move offered ("Mark as Contacted" for a new inquiry), with the
 * notes typed.
 */
export const InquiryDetails = ({
  open,
  inquiry,
  notes,
  updating,
  error,
  issues,
  moves,
  onNotes,
  onMove,
  onClose
}: Omit<NotesProps, "inquiry"> & {
  readonly open: boolean
  readonly inquiry: AdvertisingInquiry | null
  readonly onClose: () => void
}) => (
  <Dialog.Root open={open} onOpenChange={(next) => !next && !updating && onClose()}>
    <Dialog.Content
      maxWidth="620px"
      onOpenAutoFocus={(event) => {
        event.preventDefault()
        ;(event.currentTarget as HTMLElement | null)?.querySelector<HTMLElement>("textarea[name='adminNotes']")?.focus()
      }}
    >
      {inquiry !== null && (
        <>
          <Dialog.Title>{inquiry.companyName}</Dialog.Title>
          <Dialog.Description size="2" color="gray">
            {inquiry.contactName} · {inquiry.email}
          </Dialog.Description>
          <Flex my="3">
            <StatusBadge status={inquiry.status} />
          </Flex>
          <dl className="inquiry-facts">
            {(
              [
                ["Phone", inquiry.phone],
                ["Website", inquiry.website],
                ["Industry", inquiry.industry],
                ["Budget", inquiry.budget],
                ["Campaign type", inquiry.campaignType],
                ["Duration", inquiry.duration],
                ["Plan", inquiry.selectedPlan],
                ["Target audience", inquiry.targetAudience],
                ["Campaign goals", inquiry.campaignGoals],
                ["Additional info", inquiry.additionalInfo],
                ["Payment id", inquiry.paymentId],
                ["Transaction", inquiry.txid],
                ["Amount", inquiry.paymentId === "" ? "" : t.amount(inquiry.amount)]
              ] as const
            )
              .filter(([, value]) => value !== undefined && value !== "")
              .map(([label, value]) => (
                <div key={label} className="inquiry-fact">
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
          </dl>
          <NotesForm
            key={inquiry._id}
            notes={notes}
            updating={updating}
            error={error}
            issues={issues}
            moves={moves}
            inquiry={inquiry}
            onNotes={onNotes}
            onMove={onMove}
          />
        </>
      )}
    </Dialog.Content>
  </Dialog.Root>
)

/**
 * The detail modal driven by the inquiry machine (machines/inquiry.ts), which it draws in every
 * state; `shown` is the list's copy of the open inquiry, which the machine takes when it is newer,
 * so a retry names its version.
 */
export const InquiryModal = ({ detail, shown }: { readonly detail: ActorRefFrom<typeof inquiryMachine>; readonly shown: AdvertisingInquiry | null }) => {
  const snapshot = useSelector(detail, (current) => current)
  // Offered again on every state change: a copy that arrived while a move was on its way is
  // taken once the answer is in.
  useEffect(() => {
    const current = snapshot.context.inquiry
    if (shown !== null && current !== null && shown.version > current.version) detail.send({ type: "REFRESH", inquiry: shown })
  }, [shown, snapshot, detail])
  return (
    <InquiryDetails
      open={detailOpen(snapshot)}
      inquiry={snapshot.context.inquiry === null ? null : (shown ?? (snapshot.context.inquiry as unknown as AdvertisingInquiry))}
      notes={snapshot.context.notes}
      updating={snapshot.matches("updating")}
      error={snapshot.matches("failed") ? snapshot.context.error : null}
      issues={snapshot.context.issues}
      moves={movesFor(snapshot)}
      onNotes={(notes) => detail.send({ type: "EDIT", notes })}
      onMove={(status) => detail.send({ type: "MOVE", status })}
      onClose={() => detail.send({ type: "CLOSE" })}
    />
  )
}

/** The move just made, said until dismissed. */
export const InquiryDone = ({ detail }: { readonly detail: ActorRefFrom<typeof inquiryMachine> }) => {
  const done = useSelector(detail, (snapshot) => (snapshot.matches("done") ? snapshot.context.done : null))
  return (
    done !== null && (
      <div className="list-said" role="status">
        <Text size="2">{t.done(done.status, done.inquiry.companyName)}</Text>
        <Button size="1" variant="ghost" color="gray" onClick={() => detail.send({ type: "DISMISS" })}>
          {t.dismiss}
        </Button>
      </div>
    )
  )
}
