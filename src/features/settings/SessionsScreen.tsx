import { ExitIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Flex, Spinner, Text } from "@radix-ui/themes"
import { useCallback, useEffect, useMemo, useState } from "react"
import type { AdminSession } from "../../../contract/admin.ts"
import { roleLabels } from "../../../contract/common.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { endOtherSessions, endSession, listSessions } from "../../api/admin.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { FailureCallout } from "../../ui/list/ListFrame.tsx"
import { ListTable } from "../../ui/list/ListTable.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { describeUserAgent } from "./user-agent.ts"

const t = {
  title: "Sessions",
  mine: "Your sessions",
  everyone: "Everyone's sessions",
  loading: "Loading sessions...",
  loadFailed: "Failed to load the sessions",
  empty: "No open sessions",
  signOut: "Sign out",
  signOutOthers: "Sign out everywhere else",
  current: "This session",
  ended: (n: number) => (n === 0 ? "No other session was open." : `Signed out of ${n} other session${n === 1 ? "" : "s"}.`),
  failed: "Failed to sign the session out",
  refresh: "Refresh",
  keyboardHint: "j/k move · Delete sign the session out"
} as const

const when = (iso: string) => new Date(iso).toLocaleString()

/**
 * Where staff are signed in (docs/api.md, "Sessions"): the signed-in admin's sessions with their
 * browser and address, each signed out on its own or all but this one together; super admins also
 * see, and end, everyone's.
 */
export const SessionsScreen = () => {
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const isSuper = AuthContext.useSelector((snapshot) => snapshot.context.user?.role === "super_admin")
  const [scope, setScope] = useState<"mine" | "all">("mine")
  const [sessions, setSessions] = useState<ReadonlyArray<AdminSession> | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<{ readonly text: string; readonly failed: boolean } | null>(null)
  const load = useCallback(() => {
    setLoading(true)
    listSessions(token, scope).then(
      (rows) => { setSessions(rows); setError(null); setLoading(false) },
      (failure: unknown) => { setError(failureOf(failure).message); setLoading(false) }
    )
  }, [token, scope])
  useEffect(load, [load])
  const end = (session: AdminSession) => {
    if (session.current) return
    endSession(token, session).then(
      () => setNotice(null),
      (failure: unknown) => setNotice({ text: `${t.failed}: ${failureOf(failure).message}`, failed: true })
    ).finally(load)
  }
  const endOthers = () => {
    endOtherSessions(token).then(
      (ended) => setNotice({ text: t.ended(ended), failed: false }),
      (failure: unknown) => setNotice({ text: `${t.failed}: ${failureOf(failure).message}`, failed: true })
    ).finally(load)
  }
  const rows = sessions ?? []
  const keyboard = useRowKeyboard<AdminSession, HTMLTableRowElement>(rows, { remove: end })
  const focused = keyboard.focusedRow
  const commands = useMemo((): ReadonlyArray<Command> => [
    { id: "sessions:end-others", label: t.signOutOthers, group: t.title, keywords: ["logout", "sign out", "revoke"], run: endOthers },
    { id: "sessions:reload", label: "Reload the sessions", group: t.title, keywords: ["refresh"], run: load },
    ...(isSuper ? [{ id: "sessions:scope", label: scope === "mine" ? `Show ${t.everyone.toLowerCase()}` : `Show ${t.mine.toLowerCase()}`, group: t.title, run: () => setScope(scope === "mine" ? "all" : "mine") }] : []),
    ...(focused === undefined || focused.current ? [] : [{ id: "sessions:end", label: `Sign out ${describeUserAgent(focused.userAgent)} (${focused.email})`, group: t.title, shortcut: ["Delete"], run: () => end(focused) }])
  ], [focused, scope, isSuper, load])
  useRegisterCommands(commands)

  return (
    <Screen title={t.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <Button color="red" variant="soft" onClick={endOthers}><ExitIcon /> {t.signOutOthers}</Button>
        {isSuper && (
          <select className="native-select" aria-label="Whose sessions" value={scope} onChange={(event) => setScope(event.target.value as "mine" | "all")}>
            <option value="mine">{t.mine}</option>
            <option value="all">{t.everyone}</option>
          </select>
        )}
        <Button variant="soft" onClick={load}>{loading ? <Spinner /> : <ReloadIcon />} {t.refresh}</Button>
      </Flex>
      {notice !== null && (
        <Callout.Root color={notice.failed ? "red" : "green"} role={notice.failed ? "alert" : "status"} mb="3"><Callout.Text>{notice.text}</Callout.Text></Callout.Root>
      )}
      {error !== null && <FailureCallout title={t.loadFailed} message={error} onRetry={load} />}
      {sessions === null ? (error === null && <Flex gap="2" role="status"><Spinner /><Text color="gray">{t.loading}</Text></Flex>) : (
        <ListTable
          caption={scope === "mine" ? t.mine : t.everyone}
          list={{ rows, loading }}
          rowKey={(session) => session._id}
          keyboard={keyboard}
          empty={t.empty}
          columns={[
            { label: "Browser", cell: (session) => <Text>{describeUserAgent(session.userAgent)}{session.current && <Badge highContrast ml="2" color="green">{t.current}</Badge>}</Text> },
            ...(scope === "all" ? [{ label: "Admin", cell: (session: AdminSession) => session.name ?? session.email }] : []),
            { label: "Role", cell: (session) => roleLabels[session.role] },
            { label: "Address", cell: (session) => session.ip ?? "" },
            { label: "Signed in", cell: (session) => when(session.createdAt) },
            { label: "Last seen", cell: (session) => when(session.lastSeenAt) }
          ]}
          actions={(session) => session.current ? null : (
            <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => end(session)}>{t.signOut}</Button>
          )}
        />
      )}
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
    </Screen>
  )
}
