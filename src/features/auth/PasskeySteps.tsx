import { Button, Flex, Heading, Text, TextField } from "@radix-ui/themes"
import { type FormEvent, useState } from "react"
import { AuthContext } from "../../lib/auth.tsx"
import { BannerView, FieldFrame } from "../../ui/FieldFrame.tsx"
import { signInTexts as t } from "./texts.ts"
import { useStep } from "./use-step.ts"

/** The contract's second step by recovery code, and a passkey's name: checked as every sign-in field. */
const recoveryStep = () => import("../../../contract/passkeys.ts").then((module) => module.RecoveryStep)
const passkeyName = () => import("../../../contract/passkeys.ts").then((module) => module.PasskeyName)

// Loaded only when a right code meets a role that requires a passkey (SignInScreen.tsx): the
// e-mail and code steps never wait for them.

/**
 * The second step (docs/console.md, "Passkeys"): the role requires a passkey, the code was right.
 * One key (Enter on the focused button) asks the device; a lost device takes a recovery code.
 */
export const SecondStep = ({
  busy,
  asserting,
  recoveryCodes,
  error
}: {
  readonly busy: boolean
  readonly asserting: boolean
  readonly recoveryCodes: boolean
  readonly error: string | null
}) => {
  const auth = AuthContext.useActorRef()
  const [recovery, setRecovery] = useState(false)
  const [code, setCode] = useState("")
  const step = useStep(recoveryStep)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const typed = code.trim()
    const missing = typed === "" ? [{ path: "code", message: t.codeRequired }] : []
    void step.submitChecked(typed === "" ? {} : { code: typed }, missing, () => auth.send({ type: "USE_RECOVERY_CODE", code: typed }))
  }
  const codeView = step.view("code", t.recoveryLabel, t.recoveryHint)
  return (
    <Flex direction="column" gap="3">
      <Heading as="h2" size="4">
        {t.stepTitle}
      </Heading>
      <Text as="p" size="2" color="gray" role="status">
        {t.stepIntro}
      </Text>
      <Button type="button" size="3" autoFocus disabled={busy} onClick={() => auth.send({ type: "USE_PASSKEY" })}>
        {asserting ? t.stepWaiting : t.usePasskey}
      </Button>
      {recovery ? (
        recoveryCodes ? (
          <form ref={step.formRef} onSubmit={submit} noValidate aria-label={t.useRecovery}>
            <Flex direction="column" gap="3">
              <FieldFrame view={codeView}>
                <TextField.Root
                  {...codeView.control}
                  name="code"
                  autoComplete="off"
                  autoFocus
                  placeholder={t.recoveryPlaceholder}
                  value={code}
                  onChange={(event) => {
                    setCode(event.target.value)
                    step.clear("code")
                  }}
                  disabled={busy}
                />
              </FieldFrame>
              <Button type="submit" variant="soft" disabled={busy}>
                {busy && !asserting ? t.recovering : t.useRecovery}
              </Button>
            </Flex>
          </form>
        ) : (
          <Text as="p" size="2" role="status">
            {t.noRecovery}
          </Text>
        )
      ) : (
        <Button type="button" variant="soft" disabled={busy} onClick={() => setRecovery(true)}>
          {t.lostDevice}
        </Button>
      )}
      <Button type="button" variant="ghost" disabled={busy} onClick={() => auth.send({ type: "USE_DIFFERENT_EMAIL" })}>
        {t.differentEmail}
      </Button>
      <BannerView message={error} />
    </Flex>
  )
}

const dueDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })

/** Signed in with the code alone within the grace: the passkey the role requires is asked for first (docs/console.md, "Passkeys"). */
export const PasskeyRequired = ({ busy, dueBy, error }: { readonly busy: boolean; readonly dueBy: string | null; readonly error: string | null }) => {
  const auth = AuthContext.useActorRef()
  const [name, setName] = useState("")
  const step = useStep(passkeyName)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = name.trim()
    const missing = trimmed === "" ? [{ path: "name", message: t.codeRequired }] : []
    void step.submitChecked(trimmed === "" ? {} : { name: trimmed }, missing, () => auth.send({ type: "ADD_PASSKEY", name: trimmed }))
  }
  const nameView = step.view("name", t.passkeyName, t.passkeyNameHint)
  return (
    <form ref={step.formRef} onSubmit={submit} noValidate aria-label={t.requiredTitle}>
      <Flex direction="column" gap="3">
        <Heading as="h2" size="4">
          {t.requiredTitle}
        </Heading>
        <Text as="p" size="2" color="gray" role="status">
          {t.requiredIntro(dueBy === null ? "" : dueDate(dueBy))}
        </Text>
        <FieldFrame view={nameView}>
          <TextField.Root
            {...nameView.control}
            name="name"
            autoFocus
            value={name}
            onChange={(event) => {
              setName(event.target.value)
              step.clear("name")
            }}
            disabled={busy}
          />
        </FieldFrame>
        <Button type="submit" size="3" disabled={busy}>
          {busy ? t.adding : t.addPasskey}
        </Button>
        <Button type="button" variant="soft" disabled={busy} onClick={() => auth.send({ type: "SKIP" })}>
          {t.later}
        </Button>
        <Button type="button" variant="ghost" disabled={busy} onClick={() => auth.send({ type: "LOGOUT" })}>
          {t.logout}
        </Button>
        <BannerView message={error} />
      </Flex>
    </form>
  )
}
