import { Flex, Select, TextField } from "@radix-ui/themes"
import type { PostDraft } from "../../../../machines/blog-editor.ts"
import { AuthContext } from "../../../lib/auth.tsx"
import { fieldView } from "../../../lib/form/words.ts"
import { FieldFrame } from "../../../ui/FieldFrame.tsx"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"

/** Status, the schedule date (only when scheduled) and the author. */
export const SettingsTab = ({ id, draft, errors, change }: TabProps) => {
  const signedIn = AuthContext.useSelector((snapshot) => snapshot.context.user)
  const status = fieldView(`${id}-status`, t.status, errors.status)
  const schedule = fieldView(`${id}-schedule`, t.scheduleDate, errors.scheduledAt, { hint: t.scheduleHint, required: true })
  const author = fieldView(`${id}-author`, t.authorUsername, errors.authorUsername, { hint: t.authorUsernameHint })
  const credentials = fieldView(`${id}-credentials`, t.authorCredentials, errors.authorCredentials)
  return (
    <Flex direction="column" gap="4" maxWidth="520px">
      <FieldFrame view={status}>
        <Select.Root value={draft.status} onValueChange={(value) => change({ status: value as PostDraft["status"] })}>
          <Select.Trigger {...status.control} />
          <Select.Content>
            {(["draft", "published", "scheduled"] as const).map((value) => (
              <Select.Item key={value} value={value}>
                {t.statuses[value]}
              </Select.Item>
            ))}
          </Select.Content>
        </Select.Root>
      </FieldFrame>
      {draft.status === "scheduled" && (
        <FieldFrame view={schedule}>
          <TextField.Root
            {...schedule.control}
            type="datetime-local"
            value={draft.scheduledAt}
            onChange={(event) => change({ scheduledAt: event.target.value })}
          />
        </FieldFrame>
      )}
      <FieldFrame view={author}>
        <TextField.Root
          {...author.control}
          value={draft.authorUsername}
          placeholder={signedIn?.name ?? signedIn?.email ?? ""}
          onChange={(event) => change({ authorUsername: event.target.value })}
        />
      </FieldFrame>
      <FieldFrame view={credentials}>
        <TextField.Root {...credentials.control} value={draft.authorCredentials} onChange={(event) => change({ authorCredentials: event.target.value })} />
      </FieldFrame>
    </Flex>
  )
}
