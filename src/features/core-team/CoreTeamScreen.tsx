import { PlusIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Flex, Text } from "@radix-ui/themes"
import { useCallback, useMemo, useState } from "react"
import type { CoreTeamContact } from "../../../contract/contacts.ts"
import { contactPriorities, contactStatuses, type ContactStatus } from "../../../contract/inquiry-rules.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { deleteContact, exportContacts, inputOf, listContacts, saveContact } from "../../api/inquiries.ts"
import { AuthContext, useEditorRefusal } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands, withRefusal } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { useListScreen } from "../../lib/list/use-list-screen.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { useDialogAction } from "../../lib/use-dialog-action.ts"
import type { RowAction } from "../../lib/list/use-row-focus.ts"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { filterOf, ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { ContactForm } from "./ContactForm.tsx"
import { coreTeamTexts as t } from "./texts.ts"

const statusColors = { new: "blue", in_progress: "yellow", responded: "violet", resolved: "green", closed: "gray" } as const satisfies Record<
  ContactStatus,
  string
>
const priorityColors: Record<string, "gray" | "blue" | "orange" | "red"> = { low: "gray", medium: "blue", high: "orange", urgent: "red" }

const spec = {
  title: t.title,
  noun: "core team contacts",
  querySpec: { filters: { status: contactStatuses, priority: contactPriorities } },
  fetchPage: listContacts,
  idOf: (contact: CoreTeamContact) => contact._id,
  history: { kind: "contact" as const, labelOf: (contact: CoreTeamContact) => contact.inquiry.subject },
  exportCsv: exportContacts
}
const filters = [
  filterOf("status", "Status", t.allStatuses, contactStatuses, (status) => t.statuses[status]),
  filterOf("priority", "Priority", t.allPriorities, contactPriorities, (priority) => t.priorities[priority] ?? priority)
]

/**
 * The core team's inbox (docs/product-spec.md §2 "Core Team Contacts") on the one list screen:
 * "Add New Contact" toggles the form with every field of §3, the paged list (10), filters in the
 * URL, `1`–`5` for the status of the current contact, which stays current. Moderators handle
 * contacts; what a contact says is an admin's to change, as the server enforces.
 */
export const CoreTeamScreen = () => {
  const canEdit = AuthContext.useSelector((snapshot) => snapshot.context.user?.role !== "moderator")
  const refusal = useEditorRefusal()
  /** The contact the form is open on (null: a new one); undefined while it is closed. */
  const [editing, setEditing] = useState<CoreTeamContact | null | undefined>(undefined)
  const deleting = useDialogAction<CoreTeamContact>(t.deleteFailed)
  const openDeleting = deleting.open
  const [statusError, setStatusError] = useState<string | null>(null)
  const openForm = (contact: CoreTeamContact | null) => setEditing(contact)
  // "Add New Contact" is a toggle (docs/product-spec.md §2): pressed again, it closes the form.
  const toggleAdd = useCallback(() => setEditing((open) => (open === undefined ? null : undefined)), [])
  const setStatus = useStableCallback(async (contact: CoreTeamContact, status: ContactStatus) => {
    if (contact.status === status) return
    setStatusError(null)
    screen.keepShown(contact)
    try {
      await saveContact(contact, { ...inputOf(contact), status })
    } catch (error) {
      setStatusError(`${t.statusFailed}: ${failureOf(error).message}`)
    }
    reload()
  })
  const actions = useMemo(
    (): ReadonlyArray<RowAction<CoreTeamContact>> => [
      { id: "core-team:edit", key: "e", label: (contact) => `${t.edit}: ${contact.contactInfo.name}`, run: openForm },
      { id: "core-team:open", key: "Enter", inPalette: false, label: (contact) => `${t.edit}: ${contact.contactInfo.name}`, run: openForm },
      ...withRefusal<RowAction<CoreTeamContact>>(refusal("delete contacts"), [
        { id: "core-team:delete", key: "Delete", label: (contact) => `${t.delete}: ${contact.contactInfo.name}`, run: openDeleting }
      ]),
      ...contactStatuses.map((status, at): RowAction<CoreTeamContact> => ({
        id: `core-team:status:${status}`,
        key: String(at + 1),
        label: (contact) => `Set status ${t.statuses[status]}: ${contact.contactInfo.name}`,
        when: (contact) => contact.status !== status,
        run: (contact) => void setStatus(contact, status)
      }))
    ],
    [refusal, openDeleting, setStatus]
  )
  const screen = useListScreen(spec, { actions, idle: editing === undefined && deleting.state === null })
  const reload = screen.list.reload
  const commands = useMemo(
    (): ReadonlyArray<Command> =>
      withRefusal<Command>(refusal("add contacts"), [
        {
          id: "core-team:new",
          label: t.add,
          group: t.title,
          shortcut: ["n"],
          keywords: ["add", "create"],
          guard: () => deleting.state === null,
          run: toggleAdd
        }
      ]),
    [refusal, deleting.state, toggleAdd]
  )
  useRegisterCommands(commands)

  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      filters={filters}
      tools={
        <>
          {canEdit && (
            <Button onClick={toggleAdd} aria-expanded={editing === null}>
              <PlusIcon /> {t.add}
            </Button>
          )}
          <Button variant="soft" onClick={reload}>
            <ReloadIcon /> {t.refresh}
          </Button>
        </>
      }
      notices={
        <>
          {statusError !== null && (
            <Callout.Root color="red" role="alert" mb="3">
              <Callout.Text>
                {statusError}{" "}
                <Button size="1" variant="soft" color="red" onClick={() => setStatusError(null)}>
                  {t.dismiss}
                </Button>
              </Callout.Text>
            </Callout.Root>
          )}
          {editing !== undefined && (
            <ContactForm
              key={editing?._id ?? "new"}
              target={editing}
              canEdit={canEdit}
              send={async (input) => {
                await saveContact(editing, input)
                setEditing(undefined)
                reload()
              }}
              onCancel={() => setEditing(undefined)}
            />
          )}
        </>
      }
      view={{
        cards: {
          label: t.title,
          card: (contact) => (
            <div aria-label={contact.contactInfo.name}>
              <Flex justify="between" align="start" gap="2">
                <div>
                  <Text as="div" weight="bold">
                    {contact.contactInfo.name}
                  </Text>
                  <Text as="div" size="1" color="gray">
                    {[contact.contactInfo.role, contact.contactInfo.organization].filter((part) => part !== "").join(" · ")}
                  </Text>
                </div>
                <Flex gap="2">
                  <Badge color={priorityColors[contact.inquiry.priority] ?? "gray"}>{t.priorities[contact.inquiry.priority]}</Badge>
                  <Badge color={statusColors[contact.status]}>{t.statuses[contact.status]}</Badge>
                </Flex>
              </Flex>
              <Text as="div" size="2" weight="medium" mt="2">
                {contact.inquiry.subject}
              </Text>
              <Text as="div" size="1" color="gray">
                {contact.inquiry.category}
              </Text>
              <Text as="p" size="2" my="1" className="contact-details">
                {contact.inquiry.details}
              </Text>
              {contact.contactInfo.email !== "" && (
                <Text as="div" size="1">
                  {contact.contactInfo.email}
                </Text>
              )}
              <Text as="div" size="1" color="gray">
                {t.submitted(shortDate(contact.submittedAt))}
              </Text>
              <Flex gap="2" mt="3">
                <Button size="1" variant="soft" color="gray" tabIndex={-1} onClick={() => openForm(contact)}>
                  {t.edit}
                </Button>
                {canEdit && (
                  <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => openDeleting(contact)}>
                    {t.delete}
                  </Button>
                )}
              </Flex>
            </div>
          )
        }
      }}
    >
      <ConfirmDelete
        state={deleting.state === null ? null : { subject: deleting.state.target.contactInfo.name, busy: deleting.state.busy, error: deleting.state.error }}
        title={t.deleteTitle}
        question={t.confirmDelete}
        texts={t}
        onClose={deleting.close}
        onConfirm={() => void deleting.run((contact) => deleteContact(contact), reload)}
      />
    </ListScreen>
  )
}
