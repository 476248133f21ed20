import { Button, Callout } from "@radix-ui/themes"
import { ConfirmLeave } from "../../ui/ConfirmLeave.tsx"
import { useSelector } from "@xstate/react"
import { useEffect, useMemo, useState } from "react"
import { type HistoryKind, isHistoryKind } from "../../../contract/history-rules.ts"
import type { Refusal } from "../../../machines/sync.ts"
import { loadHistory } from "../../api/history.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { localTime } from "../../lib/dates.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { useHistory } from "../../lib/history.ts"
import { deleteBrowserStore } from "../../lib/store/browser-store.ts"
import type { ConsoleStore } from "../../lib/store/console-store.ts"
import { askBeforeSignOut, holdStore, STORE_KEPT_KEY, useStore } from "../../lib/store/handle.ts"
import { keepWaitingCount } from "../../lib/store/waiting-count.ts"
import { syncTexts as t } from "./texts.ts"
import { openStore, whenSessionEnds } from "./open-store.ts"

/**
 * The signed-in person's event-sourced client (docs/architecture.md, "The browser's store"): it
 * opens their store for the session, closes it when the session ends and deletes it when they
 * signed out (docs/security.md, "What stays in the browser"), and says what the screens can't: the
 * link is down, changes are waiting, the server refused one (with the record's history for a
 * conflict), and asks before a sign-out would drop waiting changes. Loaded after the first screen.
 */
/** The person asked to sign out: the store goes with the session, not kept for their return. */
let signingOut = false

export default function ConsoleClient({ owner }: { readonly owner: string }) {
  const auth = AuthContext.useActorRef()
  useEffect(() => {
    signingOut = false
    let open: ConsoleStore | undefined
    let gone = false
    whenSessionEnds(() => auth.send({ type: "SESSION_EXPIRED" }))
    void openStore(owner).then((store) => {
      if (gone) return store.close()
      open = store
      holdStore(store)
      // A form's checks, here before the link can go: a Save made offline is checked and queued.
      import("../../lib/form/check.ts").catch(() => undefined)
      localStorage.setItem(STORE_KEPT_KEY, owner)
      // What waited for this person is the store's to send now (another person's store was emptied).
      keepWaitingCount(0)
    })
    return () => {
      gone = true
      whenSessionEnds(undefined)
      holdStore(undefined)
      open?.close()
      if (!signingOut) return
      localStorage.removeItem(STORE_KEPT_KEY)
      void deleteBrowserStore()
    }
  }, [owner, auth])
  const store = useStore()
  return store === undefined ? null : <SyncNotices store={store} />
}

const SyncNotices = ({ store }: { readonly store: ConsoleStore }) => {
  const link = useSelector(store.sync, (snapshot) => (snapshot.value as { readonly link: string }).link)
  const offline = link === "offline"
  const refusals = useSelector(store.sync, (snapshot) => snapshot.context.refusals)
  const waiting = store.outbox().length
  const history = useHistory()
  const [signOut, setSignOut] = useState<(() => void) | null>(null)
  useEffect(() => {
    askBeforeSignOut((signOut) => {
      const go = () => {
        signingOut = true
        signOut()
      }
      if (store.outbox().length > 0) setSignOut(() => go)
      else go()
    })
    return () => askBeforeSignOut(undefined)
  }, [store])
  const dismiss = (refusal: Refusal) => store.dismiss(refusal)
  return (
    <>
      {/* `data-link`: the link as the sync machine has it (catchingUp, online, offline). */}
      <div role="status" aria-live="polite" className="sync-status" data-link={link}>
        {offline
          ? (waiting > 0 || navigator.onLine) && (
              <Callout.Root color="amber" size="1" mb="3">
                <Callout.Text>{waiting > 0 ? t.waiting(waiting) : t.unreachable}</Callout.Text>
              </Callout.Root>
            )
          : waiting > 0 && (
              <Callout.Root color="gray" size="1" mb="3">
                <Callout.Text>{t.saving(waiting)}</Callout.Text>
              </Callout.Root>
            )}
      </div>
      {refusals.map((refusal) =>
        refusal.retry !== undefined ? (
          <Conflict key={refusal.commandId} refusal={refusal} store={store} />
        ) : (
          <Callout.Root key={refusal.commandId} color="red" role="alert" size="1" mb="3">
            <Callout.Text>
              {refusal.message}{" "}
              {refusal.status === 409 && (
                <Button
                  size="1"
                  variant="soft"
                  color="red"
                  onClick={() => {
                    dismiss(refusal)
                    history.show({ kind: refusal.kind as HistoryKind, id: refusal.recordId, label: refusal.label })
                  }}
                >
                  {t.showHistory}
                </Button>
              )}{" "}
              <Button size="1" variant="ghost" color="gray" onClick={() => dismiss(refusal)}>
                {t.dismiss}
              </Button>
            </Callout.Text>
          </Callout.Root>
        )
      )}
      <ConfirmLeave
        open={signOut !== null}
        texts={{ title: t.signOutTitle, question: t.signOutQuestion(waiting), stay: t.stay, leave: t.signOut }}
        onStay={() => setSignOut(null)}
        onLeave={() => {
          const go = signOut
          setSignOut(null)
          go?.()
        }}
      />
    </>
  )
}

/** Who made the record's newest version, and when, as its history says; null until read, or when it can't be. */
const useLastChange = (kind: string, id: string) => {
  const [last, setLast] = useState<{ readonly who: string; readonly when: string } | null>(null)
  useEffect(() => {
    if (!isHistoryKind(kind)) return
    let gone = false
    loadHistory(kind, id).then(
      (page) => {
        const newest = page.entries[0]
        if (!gone && newest !== undefined) setLast({ who: newest.actorName ?? newest.actorEmail ?? t.theSite, when: localTime(newest.at) })
      },
      () => undefined
    )
    return () => void (gone = true)
  }, [kind, id])
  return last
}

/**
 * A change the server refused because a colleague changed the record first (docs/architecture.md,
 * "The browser's store"): what it was, who changed the record and when; the person's change is
 * kept in this browser (across reloads) until they apply it again over the colleague's (y),
 * compare the two in the record's history, or discard it.
 */
const Conflict = ({ refusal, store }: { readonly refusal: Refusal; readonly store: ConsoleStore }) => {
  const history = useHistory()
  const last = useLastChange(refusal.kind, refusal.recordId)
  const applyAgain = useStableCallback(() => store.applyAgain(refusal))
  const commands = useMemo(
    (): ReadonlyArray<Command> => [
      {
        id: `conflict:${refusal.commandId}`,
        label: t.applyAgainCommand(refusal.label),
        group: "Changes",
        shortcut: ["y"],
        keywords: ["conflict", "refused", "apply"],
        run: applyAgain
      }
    ],
    [refusal.commandId, refusal.label, applyAgain]
  )
  useRegisterCommands(commands)
  return (
    <Callout.Root color="red" role="alert" size="1" mb="3" className="conflict">
      <Callout.Text>
        {t.conflict(refusal.retry?.failed ?? "", refusal.label, last?.who ?? null, last?.when ?? null)}{" "}
        <Button size="1" color="red" highContrast onClick={applyAgain}>
          {t.applyAgain} <kbd>y</kbd>
        </Button>{" "}
        {isHistoryKind(refusal.kind) && (
          <Button
            size="1"
            variant="soft"
            color="red"
            onClick={() => history.show({ kind: refusal.kind as HistoryKind, id: refusal.recordId, label: refusal.label })}
          >
            {t.compare}
          </Button>
        )}{" "}
        <Button size="1" variant="ghost" color="gray" onClick={() => store.dismiss(refusal)}>
          {t.discard}
        </Button>
      </Callout.Text>
    </Callout.Root>
  )
}
