import { Button, Dialog, Flex, Text, TextField } from "@radix-ui/themes"
import { useActorRef, useSelector } from "@xstate/react"
import { type FormEvent, useEffect, useId, useRef, useState } from "react"
import { fromPromise } from "xstate"
import { confirmAgainMachine } from "../../machines/confirm-again.ts"
import { confirmStatus, confirmWithPasskey, sendConfirmCode, verifyConfirmCode } from "../api/confirm.ts"
import { AuthContext } from "../lib/auth.tsx"
import { useRegisterCommands } from "../lib/commands.tsx"
import { setConfirmGate } from "../lib/confirm-gate.ts"
import { checkLazily, issueAt } from "../lib/form/check-lazily.ts"
import type { FieldIssue } from "../../contract/common.ts"
import { fieldView } from "../lib/form/words.ts"
import { BannerView, FieldFrame } from "../ui/FieldFrame.tsx"
import { confirmTexts as t } from "./confirm-texts.ts"

/** The contract's confirmation code: checked as the server will before it is sent. */
const confirmCode = () => import("../../contract/confirm.ts").then((module) => module.ConfirmCode)

const CodeForm = ({ busy, onVerify }: { readonly busy: boolean; readonly onVerify: (code: string) => void }) => {
  const id = useId()
  const [code, setCode] = useState("")
  const [issues, setIssues] = useState<ReadonlyArray<FieldIssue>>([])
  const input = useRef<HTMLInputElement>(null)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const typed = code.trim()
    void checkLazily(confirmCode, typed === "" ? {} : { code: typed }).then((checked) => {
      const found = typed === "" ? [{ path: "code", message: "is required" }] : checked.ok ? [] : checked.issues
      setIssues(found)
      if (found.length > 0) input.current?.focus()
      else onVerify(typed)
    })
  }
  const view = fieldView(`${id}-code`, t.codeLabel, issueAt(issues, "code"), { required: true })
  return (
    <form onSubmit={submit} noValidate aria-label={t.confirm}>
      <Flex direction="column" gap="3">
        <FieldFrame view={view}>
          <TextField.Root
            {...view.control}
            ref={input}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            maxLength={6}
            value={code}
            onChange={(event) => {
              setCode(event.target.value)
              setIssues([])
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

/**
 * Confirming it's you again (docs/console.md, "Confirm it's you"): registers the gate every change
 * that matters waits for (src/lib/confirm-gate.ts) and asks, in a dialog, for the passkey or the
 * code by e-mail when the server says this session must. Also a palette command, for what the gate
 * does not know ahead (bringing a deleted record back).
 */
export const ConfirmAgainHost = () => {
  const waiting = useRef<Array<() => void>>([])
  const release = () => {
    const all = waiting.current
    waiting.current = []
    for (const resolve of all) resolve()
  }
  const actor = useActorRef(
    confirmAgainMachine.provide({
      actors: {
        status: fromPromise(confirmStatus),
        confirmWithPasskey: fromPromise<unknown>(confirmWithPasskey),
        sendCode: fromPromise<unknown>(sendConfirmCode),
        verifyCode: fromPromise<unknown, { code: string }>(({ input }) => verifyConfirmCode(input.code))
      },
      // Confirmed or declined, the changes waiting go: the server decides (a declined one is refused in its words).
      actions: { confirmed: release, cancelled: release }
    })
  )
  useEffect(() => {
    setConfirmGate(
      () =>
        new Promise<void>((resolve) => {
          waiting.current.push(resolve)
          if (actor.getSnapshot().matches("idle")) actor.send({ type: "ASK" })
        })
    )
    return () => {
      setConfirmGate(undefined)
      release()
    }
  }, [actor])
  useRegisterCommands([
    { id: "auth:confirm", label: t.command, group: "Account", keywords: ["sudo", "passkey", "verify"], run: () => actor.send({ type: "ASK" }) }
  ])
  const view = useSelector(actor, (snapshot) => ({
    open: snapshot.matches("passkey") || snapshot.matches("code"),
    passkey: snapshot.matches("passkey"),
    asserting: snapshot.matches({ passkey: "asserting" }),
    sending: snapshot.matches({ code: "sending" }),
    verifying: snapshot.matches({ code: "verifying" }),
    error: snapshot.context.error
  }))
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
