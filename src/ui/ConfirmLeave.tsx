import { AlertDialog, Button, Flex } from "@radix-ui/themes"

/**
 * A question before leaving loses something (the editor's unsaved post, the changes waiting at
 * sign-out): the safe answer first, the one that leaves in red.
 */
export const ConfirmLeave = ({
  open,
  texts,
  onStay,
  onLeave
}: {
  readonly open: boolean
  readonly texts: { readonly title: string; readonly question: string; readonly stay: string; readonly leave: string }
  readonly onStay: () => void
  readonly onLeave: () => void
}) => (
  <AlertDialog.Root open={open} onOpenChange={(next) => !next && onStay()}>
    <AlertDialog.Content maxWidth="460px">
      <AlertDialog.Title>{texts.title}</AlertDialog.Title>
      <AlertDialog.Description>{texts.question}</AlertDialog.Description>
      <Flex gap="3" mt="4" justify="end">
        <AlertDialog.Cancel>
          <Button variant="soft" color="gray">
            {texts.stay}
          </Button>
        </AlertDialog.Cancel>
        <AlertDialog.Action>
          <Button color="red" onClick={onLeave}>
            {texts.leave}
          </Button>
        </AlertDialog.Action>
      </Flex>
    </AlertDialog.Content>
  </AlertDialog.Root>
)
