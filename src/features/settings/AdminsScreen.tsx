import { PlusIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Flex, Grid, Heading, Text, TextField } from "@radix-ui/themes"
import { useMemo, useState } from "react"
import { type AdminAccount, MAX_DISPLAY_NAME } from "../../../contract/admin.ts"
import { type Role, roleLabels, Roles } from "../../../contract/common.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { adminUsersExportPath, createAdminUser, listAdminUsers, updateAdminUser } from "../../api/admin.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useCsvExport } from "../../lib/list/export-csv.ts"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useDebouncedSearch } from "../../lib/list/use-debounced-search.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { Field } from "../../ui/Field.tsx"
import { ExportCsvButton, ListFrame } from "../../ui/list/ListFrame.tsx"
import { ListTable } from "../../ui/list/ListTable.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"

const t = {
  title: "Admin Users",
  add: "Add admin",
  addTitle: "Add an admin",
  editTitle: "Edit admin",
  create: "Add",
  update: "Save",
  saving: "Saving…",
  cancel: "Cancel",
  edit: "Edit",
  disable: "Disable",
  enable: "Enable",
  disabling: "Disabling…",
  disableTitle: "Disable admin",
  confirmDisable: "Disable this admin? They are signed out everywhere at once and can't sign in until enabled again. Their records and history stay.",
  loading: "Loading admins...",
  loadFailed: "Failed to load admins",
  saveFailed: "Failed to save the admin",
  changeFailed: "Failed to change the admin",
  empty: "No admins match this search",
  searchLabel: "Search admins",
  searchPlaceholder: "E-mail or name...",
  refresh: "Refresh",
  email: "E-mail",
  name: "Display name",
  nameHint: "What readers see on their posts; never the e-mail.",
  role: "Role",
  emailInvalid: "Enter a valid e-mail address.",
  you: "you",
  never: "never",
  added: (email: string) => `${email} was added: they sign in with a code sent to that address.`,
  keyboardHint: "j/k move · Enter or e edit · Delete disable · n add"
} as const

const isEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(text.trim())

interface FormState {
  readonly target: AdminAccount | null
  readonly email: string
  readonly name: string
  readonly role: Role
  readonly busy: boolean
  readonly error: string | null
  readonly touched: boolean
}

/**
 * Admin users (super admins; docs/api.md, "Admin management"): who may sign in and with which
 * role. Disabling ends the admin's sessions everywhere; a lower role applies to their open
 * sessions at once; the last enabled super admin stays one (the server refuses, and says so).
 */
export const AdminsScreen = () => {
  const url = useUrlQuery({})
  const { query } = url
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const me = AuthContext.useSelector((snapshot) => snapshot.context.user?._id)
  const list = useList(query, listAdminUsers)
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const csv = useCsvExport(() => adminUsersExportPath(query), "admins.csv")
  const [form, setForm] = useState<FormState | null>(null)
  const [disabling, setDisabling] = useState<{ admin: AdminAccount; busy: boolean; error: string | null } | null>(null)
  const [notice, setNotice] = useState<{ readonly text: string; readonly failed: boolean } | null>(null)

  const openForm = (admin: AdminAccount | null) =>
    setForm({ target: admin, email: admin?.email ?? "", name: admin?.name ?? "", role: admin?.role ?? "admin", busy: false, error: null, touched: false })
  const emailError = form !== null && form.target === null && form.touched && !isEmail(form.email) ? t.emailInvalid : undefined
  const save = async () => {
    if (form === null) return
    if (form.target === null && !isEmail(form.email)) return setForm({ ...form, touched: true })
    setForm({ ...form, busy: true, error: null })
    const name = form.name.trim() === "" ? null : form.name.trim()
    try {
      if (form.target === null) {
        const made = await createAdminUser(token, { email: form.email.trim(), name, role: form.role })
        setNotice({ text: t.added(made.email), failed: false })
      } else await updateAdminUser(token, form.target, { name, role: form.role })
      setForm(null)
      list.reload()
    } catch (error) {
      setForm({ ...form, busy: false, error: `${t.saveFailed}: ${failureOf(error).message}` })
    }
  }
  /** A change from a row or the palette (enable, a role): a refusal shows above the list, which reloads either way. */
  const change = (admin: AdminAccount, update: { readonly disabled?: boolean; readonly role?: Role }) =>
    void updateAdminUser(token, admin, update).then(
      () => setNotice(null),
      (error: unknown) => setNotice({ text: `${t.changeFailed}: ${failureOf(error).message}`, failed: true })
    ).finally(list.reload)
  const confirmDisable = async () => {
    if (disabling === null) return
    setDisabling({ ...disabling, busy: true, error: null })
    try {
      await updateAdminUser(token, disabling.admin, { disabled: true })
      setDisabling(null)
      setNotice(null)
      list.reload()
    } catch (error) {
      setDisabling({ ...disabling, busy: false, error: `${t.changeFailed}: ${failureOf(error).message}` })
    }
  }
  // Disabling asks first; one's own account is not one's to disable (the server refuses it too).
  const toggle = (admin: AdminAccount) => {
    if (admin._id === me) return
    if (admin.disabled) change(admin, { disabled: false })
    else setDisabling({ admin, busy: false, error: null })
  }
  const keyboard = useRowKeyboard<AdminAccount, HTMLTableRowElement>(list.rows, { open: openForm, edit: openForm, remove: toggle })
  const focused = keyboard.focusedRow
  const commands = useMemo((): ReadonlyArray<Command> => [
    { id: "admins:new", label: t.add, group: t.title, shortcut: ["n"], keywords: ["invite", "create", "user"], guard: () => form === null, run: () => openForm(null) },
    ...(focused === undefined ? [] : [
      { id: "admins:edit", label: `Edit ${focused.email}`, group: t.title, shortcut: ["e"], run: () => openForm(focused) },
      { id: "admins:toggle", label: `${focused.disabled ? t.enable : t.disable} ${focused.email}`, group: t.title, shortcut: ["Delete"], guard: () => focused._id !== me, run: () => toggle(focused) },
      ...Roles.filter((role) => role !== focused.role).map((role): Command => ({
        id: `admins:role:${role}`,
        label: `Make ${focused.email} ${roleLabels[role]}`,
        group: t.title,
        run: () => change(focused, { role })
      }))
    ]),
    ...listCommands({ group: t.title, noun: "admins", list, url, csv })
  ], [focused, form, query, list.pagination, csv.busy, me])
  useRegisterCommands(commands)

  return (
    <Screen title={t.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <Button onClick={() => openForm(null)}><PlusIcon /> {t.add}</Button>
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        <Button variant="soft" onClick={list.reload}><ReloadIcon /> {t.refresh}</Button>
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
      </Flex>
      {notice !== null && (
        <Callout.Root color={notice.failed ? "red" : "green"} role={notice.failed ? "alert" : "status"} mb="3">
          <Callout.Text>{notice.text}</Callout.Text>
        </Callout.Root>
      )}
      {form !== null && (
        <Card mb="4" asChild>
          <form aria-label={form.target === null ? t.addTitle : t.editTitle} noValidate onSubmit={(event) => { event.preventDefault(); void save() }}>
            <Heading as="h2" size="4" mb="3">{form.target === null ? t.addTitle : `${t.editTitle}: ${form.target.email}`}</Heading>
            <Grid columns={{ initial: "1", md: "3" }} gap="3">
              {form.target === null && (
                <Field label={t.email} htmlFor="admin-email" error={emailError}>
                  <TextField.Root id="admin-email" type="email" autoFocus value={form.email} disabled={form.busy} maxLength={254} aria-invalid={emailError !== undefined}
                    onBlur={() => setForm({ ...form, touched: true })} onChange={(event) => setForm({ ...form, email: event.target.value })} />
                </Field>
              )}
              <Field label={t.name} htmlFor="admin-name" hint={t.nameHint}>
                <TextField.Root id="admin-name" value={form.name} disabled={form.busy} maxLength={MAX_DISPLAY_NAME} onChange={(event) => setForm({ ...form, name: event.target.value })} />
              </Field>
              <Field label={t.role} htmlFor="admin-role">
                <select id="admin-role" className="native-select" value={form.role} disabled={form.busy} onChange={(event) => setForm({ ...form, role: event.target.value as Role })}>
                  {Roles.map((role) => <option key={role} value={role}>{roleLabels[role]}</option>)}
                </select>
              </Field>
            </Grid>
            {form.error !== null && <Callout.Root color="red" role="alert" mt="3"><Callout.Text>{form.error}</Callout.Text></Callout.Root>}
            <Flex gap="3" mt="4">
              <Button type="submit" disabled={form.busy}>{form.busy ? t.saving : form.target === null ? t.create : t.update}</Button>
              <Button type="button" variant="soft" color="gray" disabled={form.busy} onClick={() => setForm(null)}>{t.cancel}</Button>
            </Flex>
          </form>
        </Card>
      )}
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <ListTable
          caption={t.title}
          list={list}
          keyboard={keyboard}
          empty={t.empty}
          columns={[
            { label: "E-mail", cell: (admin) => <Text>{admin.email}{admin._id === me && <Badge highContrast ml="2" color="gray">{t.you}</Badge>}</Text> },
            { label: "Name", cell: (admin) => admin.name ?? "" },
            { label: "Role", cell: (admin) => <Badge highContrast color={admin.role === "super_admin" ? "violet" : admin.role === "admin" ? "blue" : "gray"}>{roleLabels[admin.role]}</Badge> },
            { label: "Status", cell: (admin) => <Badge highContrast color={admin.disabled ? "red" : "green"}>{admin.disabled ? "Disabled" : "Enabled"}</Badge> },
            { label: "Sessions", cell: (admin) => admin.activeSessions },
            { label: "Last seen", cell: (admin) => (admin.lastSeenAt === null ? t.never : shortDate(admin.lastSeenAt)) }
          ]}
          actions={(admin) => (
            <Flex gap="2">
              <Button size="1" variant="soft" color="gray" tabIndex={-1} onClick={() => openForm(admin)}>{t.edit}</Button>
              {admin._id !== me && (
                <Button size="1" variant="soft" color={admin.disabled ? "green" : "red"} tabIndex={-1} onClick={() => toggle(admin)}>
                  {admin.disabled ? t.enable : t.disable}
                </Button>
              )}
            </Flex>
          )}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <ConfirmDelete
        state={disabling === null ? null : { subject: disabling.admin.email, busy: disabling.busy, error: disabling.error }}
        title={t.disableTitle}
        question={t.confirmDisable}
        texts={{ cancel: t.cancel, delete: t.disable, deleting: t.disabling }}
        onClose={() => setDisabling(null)}
        onConfirm={() => void confirmDisable()}
      />
    </Screen>
  )
}
