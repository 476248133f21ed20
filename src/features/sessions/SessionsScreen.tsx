import { ExitIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Text } from "@radix-ui/themes"
import { useMemo, useState } from "react"
import type { AdminSession } from "../../../contract/sessions.ts"
import { roleLabels } from "../../../contract/common.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { endOtherSessions, endSession, listSessions } from "../../api/sessions.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { filterOf } from "../../lib/list/declarations.ts"
import { ListScreen } from "../../ui/list/ListScreen.tsx"
import { describeUserAgent } from "./user-agent.ts"
import { sessionTexts as t } from "./texts.ts"

/** Whose sessions, in the URL: none is one's own, `all` everyone's (super admins). No search: they are few. */
const spec = {
  title: t.title,
  refresh: t.refresh,
  noun: "sessions",
  querySpec: { filters: { scope: ["all"] } },
  fetchPage: listSessions,
  idOf: (session: AdminSession) => session._id,
  // A sign-in or a session ended elsewhere shows without a reload.
  store: "session" as const,
  searchable: false
}
/** A super admin's: the scope is a filter. */
const everyonesSpec = {
  ...spec,
  filters: [
    filterOf("scope", "Whose sessions", t.mine, ["all"], () => t.everyone, {
      show: (label) => `Show ${label.toLowerCase()}`,
      all: `Show ${t.mine.toLowerCase()}`
    })
  ]
}

/** Delete (and the row's button) signs a session out; this session is signed out with Log out. */
const sessionActions = (end: (session: AdminSession) => void): ReadonlyArray<ListAction<AdminSession>> => [
  {
    id: "sessions:end",
    key: "Delete",
    hint: "sign the session out",
    label: (session) => `Sign out ${describeUserAgent(session.userAgent)} (${session.email})`,
    when: (session) => !session.current,
    run: end,
    button: { label: t.signOut, tone: "red" }
  }
]

const when = (iso: string) => new Date(iso).toLocaleString()

/**
 * Where staff are signed in (docs/api.md, "Admin management") on the one list screen: the
 * signed-in admin's sessions with their browser and address, each signed out on its own or all
 * but this one together; super admins also see, and end, everyone's.
 */
export const SessionsScreen = () => {
  const isSuper = AuthContext.useSelector((snapshot) => snapshot.context.user?.role === "super_admin")
  const [notice, setNotice] = useState<{ readonly text: string; readonly failed: boolean } | null>(null)
  const settle = useStableCallback(
    (done: Promise<string | null>) =>
      void done
        .then(
          (text) => setNotice(text === null ? null : { text, failed: false }),
          (failure: unknown) => setNotice({ text: `${t.failed}: ${failureOf(failure).message}`, failed: true })
        )
        .finally(() => screen.list.reload())
  )
  const end = useStableCallback((session: AdminSession) => !session.current && settle(endSession(session).then(() => null)))
  const endOthers = useStableCallback(() => settle(endOtherSessions().then(t.ended)))
  const actions = useMemo(() => sessionActions(end), [end])
  const commands: ReadonlyArray<ListCommand> = [
    { id: "sessions:end-others", label: t.signOutOthers, keywords: ["logout", "sign out", "revoke"], run: endOthers }
  ]
  const screen = useListScreen(isSuper ? everyonesSpec : spec, { actions, idle: true, commands })
  const everyone = screen.url.query.filters.scope === "all"

  return (
    <ListScreen
      screen={screen}
      texts={{ loading: t.loading, loadFailed: t.loadFailed, empty: t.empty }}
      view={{
        table: {
          caption: everyone ? t.everyone : t.mine,
          columns: [
            {
              label: "Browser",
              cell: (session) => (
                <Text>
                  {describeUserAgent(session.userAgent)}
                  {session.current && (
                    <Badge highContrast ml="2" color="green">
                      {t.current}
                    </Badge>
                  )}
                </Text>
              )
            },
            ...(everyone ? [{ label: "Admin", cell: (session: AdminSession) => session.name ?? session.email }] : []),
            { label: "Role", cell: (session) => roleLabels[session.role] },
            { label: "Address", cell: (session) => session.ip ?? "" },
            { label: "Signed in", cell: (session) => when(session.createdAt) },
            { label: "Last seen", cell: (session) => when(session.lastSeenAt) },
            { label: "Passkey used", cell: (session) => (session.lastPasskeyAt === null ? t.noPasskey : when(session.lastPasskeyAt)) }
          ]
        }
      }}
      tools={
        <>
          <Button color="red" variant="soft" onClick={endOthers}>
            <ExitIcon /> {t.signOutOthers}
          </Button>
        </>
      }
      notices={
        notice !== null && (
          <Callout.Root color={notice.failed ? "red" : "green"} role={notice.failed ? "alert" : "status"} mb="3">
            <Callout.Text>{notice.text}</Callout.Text>
          </Callout.Root>
        )
      }
    />
  )
}
