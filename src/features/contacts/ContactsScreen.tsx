import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Flex, Text } from "@radix-ui/themes"
import { useCallback, useMemo, useState } from "react"
import type { CoreTeamContact } from "../../../contract/contacts.ts"
import { contactPriorities, contactStatuses, type ContactStatus } from "../../../contract/contact-rules.ts"
import { CONTACT_KIND, deleteContact, exportContacts, listContacts, saveContact } from "../../api/contacts.ts"
import { contactDecisions } from "../../kinds/contacts.ts"
import { type Decision, decisionAction } from "../../kinds/decision.ts"
import { AuthContext, useEditorRefusal } from "../../lib/auth.tsx"
import { withRefusal } from "../../lib/commands.tsx"
import { shortDate } from "../../lib/dates.ts"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { useStableCallback } from "../../lib/use-stable.ts"
import { withStore } from "../../lib/store/handle.ts"
import { filterOf, selectable } from "../../lib/list/declarations.ts"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import { ContactForm } from "./ContactForm.tsx"
import { contactQuerySpec } from "./first-page.ts"
import { coreTeamTexts as t } from "./texts.ts"

const statusColors = { new: "blue", in_progress: "yellow", responded: "violet", resolved: "green", closed: "gray" } as const satisfies Record<
  ContactStatus,
  string
>
const priorityColors: Record<string, "gray" | "blue" | "orange" | "red"> = { low: "gray", medium: "blue", high: "orange", urgent: "red" }

const spec = {
  title: t.title,
  refresh: t.refresh,
  noun: "core team contacts",
  querySpec: contactQuerySpec,
  fetchPage: listContacts,
  store: CONTACT_KIND,
  idOf: (contact: CoreTeamContact) => contact._id,
  history: { kind: "contact" as const, labelOf: (contact: CoreTeamContact) => contact.inquiry.subject },
  exportCsv: exportContacts,
  selectable,
  filters: [
    filterOf("status", "Status", t.allStatuses, contactStatuses, (status) => t.statuses[status]),
    filterOf("priority", "Priority", t.allPriorities, contactPriorities, (priority) => t.priorities[priority] ?? priority)
  ]
}
const deleting = {
  title: t.deleteTitle,
  question: t.confirmDelete,
  subject: (contact: CoreTeamContact) => contact.contactInfo.name,
  texts: t,
  failed: t.deleteFailed,
  removes: true,
  run: deleteContact
}

const contactActions = (
  deleteRefused: string | undefined,
  edit: (contact: CoreTeamContact) => void,
  decide: (decision: Decision<CoreTeamContact>, contacts: ReadonlyArray<CoreTeamContact>) => void
): ReadonlyArray<ListAction<CoreTeamContact>> => [
  { id: "core-team:open", key: "Enter", hint: "edit", inPalette: false, label: (contact) => `${t.edit}: ${contact.contactInfo.name}`, run: edit },
  { id: "core-team:edit", key: "e", hint: "edit", label: (contact) => `${t.edit}: ${contact.contactInfo.name}`, run: edit, button: { label: t.edit } },
  ...withRefusal<ListAction<CoreTeamContact>>(deleteRefused, [
    {
      id: "core-team:delete",
      key: "Delete",
      hint: "delete",
      label: (contact) => `${t.delete}: ${contact.contactInfo.name}`,
      confirm: deleting,
      button: { label: t.delete, tone: "red" }
    }
  ]),
  ...contactDecisions.map((decision) =>
    decisionAction(decision, { nameOf: (contact) => contact.contactInfo.name, decide: (contacts) => decide(decision, contacts) })
  )
]

/**
 * The core team's inbox (docs/product-spec.md §2 "Core Team Contacts") on the one list screen:
 * "Add New Contact" toggles the form with every field of §3, the paged list (10), filters in the
 * URL, `1`–`5` for the status of the current contact, which stays current. Moderators handle
 * contacts; what a contact says is an admin's to change, as the server enforces.
 */
export const ContactsScreen = () => {
  const canEdit = AuthContext.useSelector((snapshot) => snapshot.context.user?.role !== "moderator")
  const refusal = useEditorRefusal()
  /** The contact the form is open on (null: a new one); undefined while it is closed. */
  const [editing, setEditing] = useState<CoreTeamContact | null | undefined>(undefined)
  // "Add New Contact" is a toggle (docs/product-spec.md §2): pressed again, it closes the form.
  const toggleAdd = useCallback(() => setEditing((open) => (open === undefined ? null : undefined)), [])
  /**
   * A status key (src/kinds/contacts.ts): the one contact stays current. Each change is a command,
   * shown at once; a refusal is said by the console's shell.
   */
  const decide = useStableCallback((decision: Decision<CoreTeamContact>, contacts: ReadonlyArray<CoreTeamContact>) => {
    if (contacts.length === 1 && contacts[0] !== undefined) screen.keepShown(contacts[0])
    withStore((store) => {
      for (const contact of contacts) for (const command of decision.commands(contact, { title: contact.inquiry.subject, reason: "" })) store.command(command)
    })
  })
  const actions = useMemo(() => contactActions(refusal("delete contacts"), setEditing, decide), [refusal, decide])
  const commands = withRefusal<ListCommand>(refusal("add contacts"), [
    { id: "core-team:new", label: t.add, shortcut: ["n"], hint: "new", keywords: ["add", "create"], evenOpen: true, run: toggleAdd }
  ])
  const screen = useListScreen(spec, { actions, idle: editing === undefined, commands })
  const reload = screen.list.reload

  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      view={{
        cards: {
          label: t.title,
          card: (contact, buttons) => (
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
              <Flex mt="3">{buttons}</Flex>
            </div>
          )
        }
      }}
      tools={
        <>
          {canEdit && (
            <Button onClick={toggleAdd} aria-expanded={editing === null}>
              <PlusIcon /> {t.add}
            </Button>
          )}
        </>
      }
      notices={
        <>
          {editing !== undefined && (
            <ContactForm
              key={editing?._id ?? "new"}
              target={editing}
              canEdit={canEdit}
              send={(input, as, version) => saveContact(editing === null ? null : { ...editing, version }, input, as)}
              onSaved={() => {
                setEditing(undefined)
                reload()
              }}
              onCancel={() => setEditing(undefined)}
            />
          )}
        </>
      }
    />
  )
}
