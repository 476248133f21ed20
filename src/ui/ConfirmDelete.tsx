import { AlertDialog, Button, Callout, Flex, Text } from "@radix-ui/themes"

/** How the dialog says its key: "Delete again disables · Escape cancels". */
export const confirmHint = (action: string) => `Delete again ${action.toLowerCase()}s · Escape cancels`

export interface DeleteState {
  /** What is being deleted, as the dialog names it under the question. */
  readonly subject: string
  readonly busy: boolean
  readonly error: string | null
}

/**
 * A delete confirmation (docs/product-spec.md §5 "Delete confirmations"): the screen's question,
 * the record's name, Cancel and Delete; while the delete runs both are disabled and the dialog
 * stays; a failure shows in it. It opens on Cancel, the safe button; its one key is the key that
 * asked (Delete): pressed again, it confirms (docs/architecture.md, "Keys on a list").
 */
export const ConfirmDelete = ({
  state,
  title,
  question,
  texts,
  onClose,
  onConfirm
}: {
  readonly state: DeleteState | null
  readonly title: string
  readonly question: string
  readonly texts: { readonly cancel: string; readonly delete: string; readonly deleting: string }
  readonly onClose: () => void
  readonly onConfirm: () => void
}) => (
  <AlertDialog.Root open={state !== null} onOpenChange={(open) => !open && state?.busy !== true && onClose()}>
    <AlertDialog.Content
      maxWidth="460px"
      onKeyDown={(event) => {
        if (event.key !== "Delete" || state === null || state.busy) return
        event.preventDefault()
        onConfirm()
      }}
    >
      <AlertDialog.Title>{title}</AlertDialog.Title>
      <AlertDialog.Description>{question}</AlertDialog.Description>
      {state !== null && (
        <Text as="p" size="2" mt="2" weight="medium">
          {state.subject}
        </Text>
      )}
      {state?.error != null && (
        <Callout.Root color="red" role="alert" mt="3" size="1">
          <Callout.Text>{state.error}</Callout.Text>
        </Callout.Root>
      )}
      <Text as="p" size="1" color="gray" mt="3">
        {confirmHint(texts.delete)}
      </Text>
      <Flex gap="3" mt="4" justify="end">
        <AlertDialog.Cancel>
          <Button variant="soft" color="gray" disabled={state?.busy === true}>
            {texts.cancel}
          </Button>
        </AlertDialog.Cancel>
        <Button color="red" highContrast disabled={state?.busy === true} onClick={onConfirm}>
          {state?.busy === true ? texts.deleting : texts.delete}
        </Button>
      </Flex>
    </AlertDialog.Content>
  </AlertDialog.Root>
)
