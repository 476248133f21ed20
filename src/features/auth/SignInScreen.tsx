import { Box, Button, Card, Flex, Heading, Text, TextField } from "@radix-ui/themes"
import { type FormEvent, useEffect, useState } from "react"
import type { Role } from "../../../contract/common.ts"
import { preloadApi } from "../../api/auth.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { roleOptions, signInTexts as t } from "./texts.ts"

const FormError = ({ message }: { readonly message: string | null }) =>
  message === null ? null : (
    <Text as="p" role="alert" color="red" size="2" mt="3">
      {message}
    </Text>
  )

const EmailStep = ({ busy, error }: { readonly busy: boolean; readonly error: string | null }) => {
  const auth = AuthContext.useActorRef()
  const [email, setEmail] = useState("")
  const [role, setRole] = useState<Role>("super_admin")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    auth.send({ type: "SEND_OTP", email: email.trim(), role })
  }
  return (
    <form onSubmit={submit} aria-label="Request a sign-in code">
      <Flex direction="column" gap="3">
        <label>
          <Text as="div" size="2" weight="medium" mb="1">{t.email}</Text>
          <TextField.Root
            type="email"
            name="email"
            required
            autoComplete="email"
            autoFocus
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            disabled={busy}
          />
        </label>
        <Box>
          <Text as="label" htmlFor="role" size="2" weight="medium" mb="1" style={{ display: "block" }}>{t.role}</Text>
          {/* The browser's own select: the sign-in form needs no menu library before it can show. */}
          <select id="role" name="role" className="native-select" required value={role} disabled={busy} onChange={(event) => setRole(event.target.value as Role)}>
            {roleOptions.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
          </select>
        </Box>
        <Button type="submit" size="3" disabled={busy}>{busy ? t.sending : t.send}</Button>
      </Flex>
      <FormError message={error} />
    </form>
  )
}

const CodeStep = ({ email, busy, error }: { readonly email: string; readonly busy: boolean; readonly error: string | null }) => {
  const auth = AuthContext.useActorRef()
  const [otp, setOtp] = useState("")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    auth.send({ type: "VERIFY", otp: otp.trim() })
  }
  return (
    <form onSubmit={submit} aria-label="Verify the code">
      <Heading as="h2" size="4" mb="1">{t.codeTitle}</Heading>
      <Text as="p" size="2" color="gray" mb="3">{t.codeSent(email)}</Text>
      <Flex direction="column" gap="3">
        <TextField.Root
          aria-label={t.codeLabel}
          name="otp"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          autoFocus
          maxLength={6}
          placeholder={t.codePlaceholder}
          value={otp}
          onChange={(event) => setOtp(event.target.value)}
          disabled={busy}
        />
        <Button type="submit" size="3" disabled={busy}>{busy ? t.verifying : t.verify}</Button>
        <Button type="button" variant="ghost" disabled={busy} onClick={() => auth.send({ type: "USE_DIFFERENT_EMAIL" })}>
          {t.differentEmail}
        </Button>
      </Flex>
      <FormError message={error} />
    </form>
  )
}

/** docs/product-spec.md §2, "Sign-in screen": two steps, errors in red under the form, buttons disabled while busy. */
export const SignInScreen = () => {
  const state = AuthContext.useSelector((snapshot) => ({
    step: snapshot.matches("otpSent") || snapshot.matches("verifying") ? "code" as const : "email" as const,
    busy: snapshot.matches("sendingOtp") || snapshot.matches("verifying"),
    email: snapshot.context.email,
    error: snapshot.context.error
  }), (a, b) => a.step === b.step && a.busy === b.busy && a.email === b.email && a.error === b.error)
  // The form needs nothing more to show; the API client it will send with comes after it is painted.
  useEffect(() => {
    const frame = requestAnimationFrame(() => setTimeout(preloadApi, 0))
    return () => cancelAnimationFrame(frame)
  }, [])
  return (
    <Flex align="center" justify="center" p="4" style={{ minHeight: "100vh" }}>
      <Card size="4" style={{ width: "min(420px, 100%)" }}>
        <main>
          <Heading as="h1" size="6" mb="1">{t.title}</Heading>
          <Text as="p" size="2" color="gray" mb="4">{t.intro}</Text>
          {state.step === "code"
            ? <CodeStep email={state.email} busy={state.busy} error={state.error} />
            : <EmailStep busy={state.busy} error={state.error} />}
        </main>
      </Card>
    </Flex>
  )
}
