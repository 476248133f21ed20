import { useActorRef, useSelector } from "@xstate/react"
import { lazy, Suspense, useEffect, useMemo, useRef } from "react"
import { fromPromise } from "xstate"
import { confirmAgainMachine } from "../../machines/confirm-again.ts"
import { useRegisterCommands } from "../lib/commands.tsx"
import { setConfirmGate } from "../lib/confirm-gate.ts"
import { confirmTexts as t } from "./confirm-texts.ts"

/** The dialog and the calls, loaded when first needed: a signed-in first screen never waits for them. */
const ConfirmAgainDialog = lazy(() => import("./ConfirmAgainDialog.tsx"))
const calls = () => import("../api/confirm.ts")

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
        status: fromPromise(async () => (await calls()).confirmStatus()),
        confirmWithPasskey: fromPromise<unknown>(async () => (await calls()).confirmWithPasskey()),
        sendCode: fromPromise<unknown>(async () => (await calls()).sendConfirmCode()),
        verifyCode: fromPromise<unknown, { code: string }>(async ({ input }) => (await calls()).verifyConfirmCode(input.code))
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
  // One array for the host's life: registering anew each render would tell every command's reader each time.
  const commands = useMemo(
    () => [{ id: "auth:confirm", label: t.command, group: "Account", keywords: ["sudo", "passkey", "verify"], run: () => actor.send({ type: "ASK" }) }],
    [actor]
  )
  useRegisterCommands(commands)
  const view = useSelector(actor, (snapshot) => ({
    open: snapshot.matches("passkey") || snapshot.matches("code"),
    passkey: snapshot.matches("passkey"),
    asserting: snapshot.matches({ passkey: "asserting" }),
    sending: snapshot.matches({ code: "sending" }),
    verifying: snapshot.matches({ code: "verifying" }),
    error: snapshot.context.error
  }))
  if (!view.open) return null
  return (
    <Suspense fallback={null}>
      <ConfirmAgainDialog actor={actor} view={view} />
    </Suspense>
  )
}
