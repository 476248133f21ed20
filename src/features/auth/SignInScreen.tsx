import { Box, Button, Callout, Card, Flex, Heading, Spinner, Text, TextField } from "@radix-ui/themes"
import { type FormEvent, lazy, Suspense, useEffect, useState } from "react"
import type { SnapshotFrom } from "xstate"
import type { AuthMachine } from "../../../machines/auth.ts"
import { OTP_RESEND_SECONDS } from "../../../contract/auth-rules.ts"
import type { Role } from "../../../contract/common.ts"
import { preloadApi } from "../../api/auth.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { dropKeptPaint } from "../../lib/list/kept-paint.ts"
import { useWaitingCount } from "../../lib/store/waiting-count.ts"
import { BannerView, FieldFrame } from "../../ui/FieldFrame.tsx"
import { roleOptions, signInTexts as t } from "./texts.ts"
import { useStep } from "./use-step.ts"

const EmailStep = ({ busy, passkey, error }: { readonly busy: boolean; readonly passkey: boolean; readonly error: string | null }) => {
  const auth = AuthContext.useActorRef()
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<Role>("super_admin")
  const step = useStep()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const trimmed = email.trim()
    // An empty e-mail is a missing one: "Email is required".
    void step.submitChecked({ ...(trimmed === "" ? {} : { email: trimmed }), role }, [], () => auth.send({ type: "SEND_OTP", email: trimmed, role }))
  }
  const emailView = step.view("email", t.email)
  const roleView = step.view("role", t.role)
  return (
    <form ref={step.formRef} onSubmit={submit} noValidate aria-label="Request a sign-in code">
      <Flex direction="column" gap="3">
        <FieldFrame view={emailView}>
          <TextField.Root
            {...emailView.control}
            type="email"
            name="email"
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(event) => {
              setEmail(event.target.value)
              step.clear("email")
            }}
            disabled={busy}
          />
        </FieldFrame>
        <Box>
          <FieldFrame view={roleView}>
            {(control) => (
              // The browser's own select: the sign-in form needs no menu library before it can show.
              <select {...control} name="role" className="native-select" value={role} disabled={busy} onChange={(event) => setRole(event.target.value as Role)}>
                {roleOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            )}
          </FieldFrame>
        </Box>
        <Button type="submit" size="3" disabled={busy || passkey}>
          {busy ? t.sending : t.send}
        </Button>
        {/* Ours (docs/console.md, "Passkeys"): no e-mail typed; the device offers this console's passkey. */}
        <Button type="button" size="3" variant="soft" disabled={busy || passkey} onClick={() => auth.send({ type: "SIGN_IN_WITH_PASSKEY" })}>
          {passkey ? t.passkeyWaiting : t.passkey}
        </Button>
        <BannerView message={error} />
      </Flex>
    </form>
  )
}

/** Seconds left of `seconds`, counted down once a second from each new `start`. */
const useCountdown = (seconds: number, start: unknown) => {
  const [left, setLeft] = useState(seconds)
  useEffect(() => {
    const until = Date.now() + seconds * 1000
    const tick = () => setLeft(Math.max(0, Math.ceil((until - Date.now()) / 1000)))
    tick()
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [seconds, start])
  return left
}

const CodeStep = ({
  email,
  busy,
  resending,
  error,
  resendAfterSeconds,
  attempt
}: {
  readonly email: string
  readonly busy: boolean
  readonly resending: boolean
  readonly error: string | null
  readonly resendAfterSeconds: number | null
  /** The attempt the last answer named: each new one starts the minute again. */
  readonly attempt: string | null
}) => {
  const auth = AuthContext.useActorRef()
  // One code a minute is mailed (docs/security.md, "Sign-in"): the server says what is left of it when it sent none.
  const secondsLeft = useCountdown(resendAfterSeconds ?? OTP_RESEND_SECONDS, attempt)
  const [otp, setOtp] = useState("")
  const step = useStep()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const code = otp.trim()
    const missing = code === "" ? [{ path: "otp", message: t.codeRequired }] : []
    void step.submitChecked({ email, ...(code === "" ? {} : { otp: code }) }, missing, () => auth.send({ type: "VERIFY", otp: code }))
  }
  const codeView = step.view("otp", t.codeLabel)
  return (
    <form ref={step.formRef} onSubmit={submit} noValidate aria-label="Verify the code">
      <Heading as="h2" size="4" mb="1">
        {t.codeTitle}
      </Heading>
      <Text as="p" size="2" color="gray" mb="3" role="status">
        {resendAfterSeconds === null ? t.codeSent(email) : t.codeKept(email, resendAfterSeconds)}
      </Text>
      <Flex direction="column" gap="3">
        <FieldFrame view={codeView}>
          <TextField.Root
            {...codeView.control}
            name="otp"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            maxLength={6}
            placeholder={t.codePlaceholder}
            value={otp}
            onChange={(event) => {
              setOtp(event.target.value)
              step.clear("otp")
            }}
            disabled={busy}
          />
        </FieldFrame>
        <Button type="submit" size="3" disabled={busy}>
          {busy ? t.verifying : t.verify}
        </Button>
        <Button type="button" variant="soft" disabled={busy || secondsLeft > 0} onClick={() => auth.send({ type: "RESEND" })}>
          {resending ? t.resending : secondsLeft > 0 ? t.resendIn(secondsLeft) : t.resend}
        </Button>
        <Button type="button" variant="ghost" disabled={busy} onClick={() => auth.send({ type: "USE_DIFFERENT_EMAIL" })}>
          {t.differentEmail}
        </Button>
        <BannerView message={error} />
      </Flex>
    </form>
  )
}

/** The passkey steps, loaded when first needed: the e-mail and code steps never wait for them. */
const SecondStep = lazy(() => import("./PasskeySteps.tsx").then((module) => ({ default: module.SecondStep })))
const PasskeyRequired = lazy(() => import("./PasskeySteps.tsx").then((module) => ({ default: module.PasskeyRequired })))

type Step = "email" | "code" | "second" | "required"

const stepOf = (snapshot: SnapshotFrom<AuthMachine>): Step =>
  snapshot.matches("secondStep")
    ? "second"
    : snapshot.matches("passkeyRequired")
      ? "required"
      : snapshot.matches("otpSent") || snapshot.matches("verifying") || snapshot.matches("resendingOtp")
        ? "code"
        : "email"

/** docs/product-spec.md §2, "Sign-in screen": two steps, errors in red under the form, buttons disabled while busy. */
export const SignInScreen = () => {
  const state = AuthContext.useSelector(
    (snapshot) => ({
      step: stepOf(snapshot),
      busy:
        snapshot.matches("sendingOtp") ||
        snapshot.matches("verifying") ||
        snapshot.matches("resendingOtp") ||
        snapshot.matches({ secondStep: "asserting" }) ||
        snapshot.matches({ secondStep: "recovering" }) ||
        snapshot.matches({ passkeyRequired: "adding" }),
      passkey: snapshot.matches("signingInWithPasskey") || snapshot.matches({ secondStep: "asserting" }),
      resending: snapshot.matches("resendingOtp"),
      email: snapshot.context.email,
      error: snapshot.context.error,
      resendAfterSeconds: snapshot.context.resendAfterSeconds,
      attempt: snapshot.context.attempt,
      recoveryCodes: snapshot.context.recoveryCodes,
      dueBy: snapshot.context.passkeyDueBy
    }),
    (a, b) =>
      a.step === b.step &&
      a.busy === b.busy &&
      a.passkey === b.passkey &&
      a.resending === b.resending &&
      a.email === b.email &&
      a.error === b.error &&
      a.resendAfterSeconds === b.resendAfterSeconds &&
      a.attempt === b.attempt &&
      a.recoveryCodes === b.recoveryCodes &&
      a.dueBy === b.dueBy
  )
  const waiting = useWaitingCount()
  // A reload whose session was refused painted the tab's last list (src/lib/list/kept-paint.ts): the form shows instead.
  useEffect(dropKeptPaint, [])
  // The form needs nothing more to show; the API client it will send with comes after it is painted.
  useEffect(() => {
    const frame = requestAnimationFrame(() => setTimeout(() => void preloadApi(), 0))
    return () => cancelAnimationFrame(frame)
  }, [])
  return (
    <Flex align="center" justify="center" p="4" style={{ minHeight: "100vh" }}>
      <Card size="4" style={{ width: "min(420px, 100%)" }}>
        <main>
          <Heading as="h1" size="6" mb="1">
            {t.title}
          </Heading>
          <Text as="p" size="2" color="gray" mb="4">
            {t.intro}
          </Text>
          {waiting > 0 && (
            <Callout.Root color="orange" size="1" mb="4" role="status">
              <Callout.Text>{t.changesWaiting(waiting)}</Callout.Text>
            </Callout.Root>
          )}
          {state.step === "code" ? (
            <CodeStep
              email={state.email}
              busy={state.busy}
              resending={state.resending}
              error={state.error}
              resendAfterSeconds={state.resendAfterSeconds}
              attempt={state.attempt}
            />
          ) : state.step === "second" ? (
            <Suspense fallback={<Spinner />}>
              <SecondStep busy={state.busy} asserting={state.passkey} recoveryCodes={state.recoveryCodes} error={state.error} />
            </Suspense>
          ) : state.step === "required" ? (
            <Suspense fallback={<Spinner />}>
              <PasskeyRequired busy={state.busy} dueBy={state.dueBy} error={state.error} />
            </Suspense>
          ) : (
            <EmailStep busy={state.busy} passkey={state.passkey} error={state.error} />
          )}
        </main>
      </Card>
    </Flex>
  )
}
