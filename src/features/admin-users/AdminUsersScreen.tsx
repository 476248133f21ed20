import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Card, Grid, Heading, Text } from "@radix-ui/themes"
import { useMemo, useState } from "react"
import type { AdminAccount, AdminAccountInput } from "../../../contract/admin-users.ts"
import { type Role, roleLabels, Roles } from "../../../contract/common.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { ADMIN_KIND, createAdminUser, exportAdminUsers, listAdminUsers, updateAdminUser } from "../../api/admin-users.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { shortDate } from "../../lib/dates.ts"
import { resetPasskeys } from "../../api/passkeys.ts"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { useContractForm } from "../../lib/form/use-contract-form.ts"
import type { CallAs } from "../../lib/store/handle.ts"
import { useExpectedVersion } from "../../lib/store/use-open-record.ts"
import { ContractFormShell, FormActions, FormField, TextInput } from "../../ui/FormField.tsx"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import type { Column } from "../../ui/list/ListTable.tsx"
import { adminQuerySpec } from "./first-page.ts"
import { adminUserTexts as t } from "./texts.ts"

/** The admin form as typed. */
type AdminValues = { readonly email: string; readonly name: string; readonly role: string }

/**
 * Adding an admin (e-mail, name, role) or editing one (name, role), on the one form pattern
 * (docs/architecture.md, "Forms"), checked against the contract's AdminAccountInput; an edit
 * checks with the admin's own e-mail, which it does not change.
 */
const AdminForm = ({
  record,
  send,
  onSaved,
  onCancel
}: {
  readonly record: AdminAccount | null
  /** Saves the admin at `version` (the one opened, past this browser's changes to it still waiting). */
  readonly send: (input: AdminAccountInput, as: CallAs, version: number) => Promise<unknown>
  readonly onSaved: () => void
  readonly onCancel: () => void
}) => {
  const version = useExpectedVersion(ADMIN_KIND, record)
  const contract = useContractForm<AdminValues, AdminAccountInput>({
    values: { email: record?.email ?? "", name: record?.name ?? "", role: record?.role ?? "admin" },
    schema: () => import("../../../contract/admin-users.ts").then((module) => module.AdminAccountInput),
    toPayload: (values) => ({ email: record?.email ?? values.email.trim(), name: values.name.trim() === "" ? null : values.name.trim(), role: values.role }),
    send: (input, _intent, as) => send(input, as, version),
    ...(record === null ? {} : { record: { kind: ADMIN_KIND, id: record._id, label: record.email, opened: record } }),
    effectOf: (input) => ({ name: input.name ?? null, role: input.role }),
    saved: onSaved,
    kept: onCancel,
    failed: t.saveFailed
  })
  const busy = contract.busy
  const title = record === null ? t.addTitle : t.editTitle
  return (
    <Card mb="4" asChild>
      <div onKeyDown={(event) => event.key === "Escape" && !busy && onCancel()}>
        <ContractFormShell form={contract} label={title}>
          <Heading as="h2" size="4" mb="3">
            {record === null ? t.addTitle : `${t.editTitle}: ${record.email}`}
          </Heading>
          <Grid columns={{ initial: "1", md: "3" }} gap="3">
            {record === null && <TextInput name="email" label={t.email} kind="email" required autoFocus disabled={busy} />}
            <TextInput name="name" label={t.name} hint={t.nameHint} autoFocus={record !== null} disabled={busy} />
            <FormField name="role" label={t.role}>
              {(control) => (
                <select {...control} className="native-select" disabled={busy} {...contract.form.register("role")}>
                  {Roles.map((role) => (
                    <option key={role} value={role}>
                      {roleLabels[role]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </Grid>
          <FormActions busy={busy} submit={busy ? t.saving : record === null ? t.create : t.update} cancel={t.cancel} onCancel={onCancel} />
        </ContractFormShell>
      </div>
    </Card>
  )
}

const spec = {
  title: t.title,
  refresh: t.refresh,
  noun: "admins",
  querySpec: adminQuerySpec,
  fetchPage: listAdminUsers,
  store: ADMIN_KIND,
  idOf: (admin: AdminAccount) => admin._id,
  history: { kind: "admin" as const, labelOf: (admin: AdminAccount) => admin.email },
  exportCsv: exportAdminUsers
}

/** One's own account is not one's to disable (the server refuses it too); disabling asks first. */
const adminActions = (on: {
  readonly me: string | undefined
  readonly edit: (admin: AdminAccount) => void
  readonly change: (admin: AdminAccount, update: { readonly disabled?: boolean; readonly role?: Role }) => void
  readonly disabled: () => void
}): ReadonlyArray<ListAction<AdminAccount>> => [
  { id: "admins:open", key: "Enter", hint: "edit", inPalette: false, label: (admin) => `Edit ${admin.email}`, run: on.edit },
  { id: "admins:edit", key: "e", hint: "edit", label: (admin) => `Edit ${admin.email}`, run: on.edit, button: { label: t.edit } },
  {
    id: "admins:enable",
    key: "Delete",
    hint: "disable (Delete again confirms) or enable",
    label: (admin) => `${t.enable} ${admin.email}`,
    when: (admin) => admin._id !== on.me && admin.disabled,
    run: (admin) => on.change(admin, { disabled: false }),
    button: { label: t.enable, tone: "green" }
  },
  {
    id: "admins:disable",
    key: "Delete",
    hint: "disable (Delete again confirms) or enable",
    label: (admin) => `${t.disable} ${admin.email}`,
    when: (admin) => admin._id !== on.me && !admin.disabled,
    button: { label: t.disable, tone: "red" },
    confirm: {
      title: t.disableTitle,
      question: t.confirmDisable,
      subject: (admin) => admin.email,
      texts: { cancel: t.cancel, delete: t.disable, deleting: t.disabling },
      failed: t.changeFailed,
      run: (admin) => updateAdminUser(admin, { disabled: true }).then(on.disabled)
    }
  },
  {
    // docs/security.md, "Passkeys": a lost device; never one's own (Settings → Passkeys is).
    id: "admins:reset-passkeys",
    label: (admin) => `${t.resetPasskeys} of ${admin.email}`,
    when: (admin) => admin._id !== on.me && !admin.disabled,
    confirm: {
      title: t.resetPasskeysTitle,
      question: t.confirmResetPasskeys,
      subject: (admin) => admin.email,
      texts: { cancel: t.cancel, delete: t.resetPasskeys, deleting: t.resetting },
      failed: t.resetFailed,
      run: (admin) => resetPasskeys(admin._id).then(on.disabled)
    }
  },
  ...Roles.map((role): ListAction<AdminAccount> => ({
    id: `admins:role:${role}`,
    label: (admin) => `Make ${admin.email} ${roleLabels[role]}`,
    when: (admin) => admin.role !== role,
    run: (admin) => on.change(admin, { role })
  }))
]

type AdminChange = { readonly disabled?: boolean; readonly role?: Role }

/**
 * A change from a row or the palette, shown at once through the browser's store (after this
 * browser's changes to the admin still waiting).
 */
const changeAdmin = (admin: AdminAccount, update: AdminChange) =>
  updateAdminUser(admin, update, {
    kind: ADMIN_KIND,
    recordIds: [admin._id],
    effect: update,
    label: `${t.editTitle}: ${admin.email}`,
    failed: t.changeFailed,
    quiet: true,
    fromShown: true
  })

/**
 * Admin users (super admins; docs/api.md, "Admin management") on the one list screen: who may
 * sign in and with which role. Disabling ends the admin's sessions everywhere; a lower role
 * applies to their open sessions at once; the last enabled super admin stays one (the server
 * refuses, and says so).
 */
export const AdminUsersScreen = () => {
  const me = AuthContext.useSelector((snapshot) => snapshot.context.user?._id)
  /** The admin the form is open on (null: a new one); undefined while it is closed. */
  const [editing, setEditing] = useState<AdminAccount | null | undefined>(undefined)
  const [notice, setNotice] = useState<{ readonly text: string; readonly failed: boolean } | null>(null)
  // A refusal shows above the list, which reloads either way.
  const change = (admin: AdminAccount, update: AdminChange) =>
    void changeAdmin(admin, update)
      .then(
        () => setNotice(null),
        (error: unknown) => setNotice({ text: `${t.changeFailed}: ${failureOf(error).message}`, failed: true })
      )
      .finally(screen.list.reload)
  const actions = adminActions({ me, edit: setEditing, change, disabled: () => setNotice(null) })
  const commands: ReadonlyArray<ListCommand> = [
    { id: "admins:new", label: t.add, shortcut: ["n"], hint: "add", keywords: ["invite", "create", "user"], run: () => setEditing(null) }
  ]
  const screen = useListScreen(spec, { actions, idle: editing === undefined, commands })

  const columns = useMemo(
    (): ReadonlyArray<Column<AdminAccount>> => [
      {
        label: "E-mail",
        cell: (admin) => (
          <Text>
            {admin.email}
            {admin._id === me && (
              <Badge highContrast ml="2" color="gray">
                {t.you}
              </Badge>
            )}
          </Text>
        )
      },
      { label: "Name", cell: (admin) => admin.name ?? "" },
      {
        label: "Role",
        cell: (admin) => (
          <Badge highContrast color={admin.role === "super_admin" ? "violet" : admin.role === "admin" ? "blue" : "gray"}>
            {roleLabels[admin.role]}
          </Badge>
        )
      },
      {
        label: "Status",
        cell: (admin) => (
          <Badge highContrast color={admin.disabled ? "red" : "green"}>
            {admin.disabled ? "Disabled" : "Enabled"}
          </Badge>
        )
      },
      { label: "Sessions", cell: (admin) => admin.activeSessions },
      { label: "Last seen", cell: (admin) => (admin.lastSeenAt === null ? t.never : shortDate(admin.lastSeenAt)) }
    ],
    [me]
  )

  const save = async (record: AdminAccount | null, input: AdminAccountInput, as: CallAs, version: number) => {
    if (record === null) setNotice({ text: t.added((await createAdminUser(input, as)).email), failed: false })
    else await updateAdminUser({ ...record, version }, { name: input.name ?? null, role: input.role }, as)
  }
  const saved = () => {
    setEditing(undefined)
    screen.list.reload()
  }
  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      view={{
        table: {
          caption: t.title,
          columns
        }
      }}
      tools={
        <>
          <Button onClick={() => setEditing(null)}>
            <PlusIcon /> {t.add}
          </Button>
        </>
      }
      notices={
        <>
          {notice !== null && (
            <Callout.Root color={notice.failed ? "red" : "green"} role={notice.failed ? "alert" : "status"} mb="3">
              <Callout.Text>{notice.text}</Callout.Text>
            </Callout.Root>
          )}
          {editing !== undefined && (
            <AdminForm
              key={editing?._id ?? "new"}
              record={editing}
              send={(input, as, version) => save(editing, input, as, version)}
              onSaved={saved}
              onCancel={() => setEditing(undefined)}
            />
          )}
        </>
      }
    />
  )
}
