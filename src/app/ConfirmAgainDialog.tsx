import { Button, Dialog, Flex, Text, TextField } from "@radix-ui/themes"
import { type FormEvent, useState } from "react"
import type { ActorRefFrom } from "xstate"
import type { ConfirmAgainMachine } from "../../machines/confirm-again.ts"
import { AuthContext } from "../lib/auth.tsx"
import { useStep } from "../features/auth/use-step.ts"
import { BannerView, FieldFrame } from "../ui/FieldFrame.tsx"
import { confirmTexts as t } from "./confirm-texts.ts"

/** The contract's confirmation code: checked as the server will before it is sent. */
const confirmCode = () => import("../../contract/confirm.ts").then((module) => module.ConfirmCode)

const CodeForm = ({ busy, onVerify }: { readonly busy: boolean; readonly onVerify: (code: string) => void }) => {
  const [code, setCode] = useState("")
  const step = useStep(confirmCode)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const typed = code.trim()
    const missing = typed === "" ? [{ path: "code", message: "is required" }] : []
    void step.submitChecked(typed === "" ? {} : { code: typed }, missing, () => onVerify(typed))
  }
  const view = step.view("code", t.codeLabel)
  return (
    <form ref={step.formRef} onSubmit={submit} noValidate aria-label={t.confirm}>
      <Flex direction="column" gap="3">
        <FieldFrame view={view}>
          <TextField.Root
            {...view.control}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            maxLength={6}
            value={code}
            onChange={(event) => {
              setCode(event.target.value)
              step.clear("code")
            }}
            disabled={busy}
          />
        </FieldFrame>
        <Button type="submit" disabled={busy}>
          {busy ? t.checking : t.confirm}
        </Button>
      </Flex>
    </form>
  )
}

/** What the dialog shows of the confirm-again machine (ConfirmAgainHost.tsx). */
export interface ConfirmView {
  readonly open: boolean
  readonly passkey: boolean
  readonly asserting: boolean
  readonly sending: boolean
  readonly verifying: boolean
  readonly error: string | null
}

/** The "Confirm it's you" dialog (docs/console.md, "Confirm it's you"): the passkey, or the code mailed. */
export default function ConfirmAgainDialog({ actor, view }: { readonly actor: ActorRefFrom<ConfirmAgainMachine>; readonly view: ConfirmView }) {
  const email = AuthContext.useSelector((snapshot) => snapshot.context.user?.email ?? "")
  return (
    <Dialog.Root open={view.open} onOpenChange={(open) => (open ? undefined : actor.send({ type: "CANCEL" }))}>
      <Dialog.Content maxWidth="440px" aria-describedby={undefined}>
        <Dialog.Title>{t.title}</Dialog.Title>
        <Text as="p" size="2" mb="3">
          {view.passkey ? t.passkeyIntro : t.codeIntro(email)}
        </Text>
        <Flex direction="column" gap="3">
          {view.passkey ? (
            <Button autoFocus disabled={view.asserting} onClick={() => actor.send({ type: "USE_PASSKEY" })}>
              {view.asserting ? t.waiting : t.usePasskey}
            </Button>
          ) : (
            <>
              <CodeForm busy={view.sending || view.verifying} onVerify={(code) => actor.send({ type: "VERIFY", code })} />
              <Button variant="soft" disabled={view.sending || view.verifying} onClick={() => actor.send({ type: "RESEND" })}>
                {view.sending ? t.sending : t.resend}
              </Button>
            </>
          )}
          <BannerView message={view.error} />
          <Dialog.Close>
            <Button variant="ghost" color="gray">
              {t.cancel}
            </Button>
          </Dialog.Close>
        </Flex>
      </Dialog.Content>
    </Dialog.Root>
  )
}
