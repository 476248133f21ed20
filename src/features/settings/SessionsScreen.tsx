import { ExitIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Flex, Text } from "@radix-ui/themes"
import { useMemo, useState } from "react"
import type { AdminSession } from "../../../contract/admin.ts"
import { roleLabels } from "../../../contract/common.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { endOtherSessions, endSession, listSessions } from "../../api/admin.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { FilterSelect } from "../../ui/list/FilterSelect.tsx"
import { ListFrame } from "../../ui/list/ListFrame.tsx"
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

/** Whose sessions, in the URL: none is one's own, `all` everyone's (super admins). */
const querySpec = { filters: { scope: ["all"] } }

const when = (iso: string) => new Date(iso).toLocaleString()

/**
 * Where staff are signed in (docs/api.md, "Admin management") on the shared list pattern: the
 * signed-in admin's sessions with their browser and address, each signed out on its own or all
 * but this one together; super admins also see, and end, everyone's.
 */
export const SessionsScreen = () => {
  const url = useUrlQuery(querySpec)
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const isSuper = AuthContext.useSelector((snapshot) => snapshot.context.user?.role === "super_admin")
  const list = useList(url.query, listSessions)
  const everyone = url.query.filters.scope === "all"
  const [notice, setNotice] = useState<{ readonly text: string; readonly failed: boolean } | null>(null)
  const settle = (done: Promise<string | null>) =>
    void done.then(
      (text) => setNotice(text === null ? null : { text, failed: false }),
      (failure: unknown) => setNotice({ text: `${t.failed}: ${failureOf(failure).message}`, failed: true })
    ).finally(list.reload)
  const end = (session: AdminSession) => !session.current && settle(endSession(token, session).then(() => null))
  const endOthers = () => settle(endOtherSessions(token).then(t.ended))
  const keyboard = useRowKeyboard<AdminSession, HTMLTableRowElement>(list.rows, { remove: end })
  const focused = keyboard.focusedRow
  const commands = useMemo((): ReadonlyArray<Command> => [
    { id: "sessions:end-others", label: t.signOutOthers, group: t.title, keywords: ["logout", "sign out", "revoke"], run: endOthers },
    ...(isSuper ? [{ id: "sessions:scope", label: everyone ? `Show ${t.mine.toLowerCase()}` : `Show ${t.everyone.toLowerCase()}`, group: t.title, run: () => url.filter("scope", everyone ? "" : "all") }] : []),
    ...(focused === undefined || focused.current ? [] : [{ id: "sessions:end", label: `Sign out ${describeUserAgent(focused.userAgent)} (${focused.email})`, group: t.title, shortcut: ["Delete"], run: () => end(focused) }]),
    ...listCommands({ group: t.title, noun: "sessions", list, url })
  ], [focused, everyone, isSuper, list.pagination, url.query])
  useRegisterCommands(commands)

  return (
    <Screen title={t.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <Button color="red" variant="soft" onClick={endOthers}><ExitIcon /> {t.signOutOthers}</Button>
        {isSuper && <FilterSelect url={url} name="scope" label="Whose sessions" allLabel={t.mine} options={[["all", t.everyone]]} />}
        <Button variant="soft" onClick={list.reload}><ReloadIcon /> {t.refresh}</Button>
      </Flex>
      {notice !== null && (
        <Callout.Root color={notice.failed ? "red" : "green"} role={notice.failed ? "alert" : "status"} mb="3"><Callout.Text>{notice.text}</Callout.Text></Callout.Root>
      )}
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })}>
        <ListTable
          caption={everyone ? t.everyone : t.mine}
          list={list}
          keyboard={keyboard}
          empty={t.empty}
          columns={[
            { label: "Browser", cell: (session) => <Text>{describeUserAgent(session.userAgent)}{session.current && <Badge highContrast ml="2" color="green">{t.current}</Badge>}</Text> },
            ...(everyone ? [{ label: "Admin", cell: (session: AdminSession) => session.name ?? session.email }] : []),
            { label: "Role", cell: (session) => roleLabels[session.role] },
            { label: "Address", cell: (session) => session.ip ?? "" },
            { label: "Signed in", cell: (session) => when(session.createdAt) },
            { label: "Last seen", cell: (session) => when(session.lastSeenAt) }
          ]}
          actions={(session) => session.current ? null : (
            <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => end(session)}>{t.signOut}</Button>
          )}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
    </Screen>
  )
}
