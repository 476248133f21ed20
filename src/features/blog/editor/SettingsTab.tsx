import { Flex, Select, TextField } from "@radix-ui/themes"
import type { PostDraft } from "../../../../machines/blog-editor.ts"
import { AuthContext } from "../../../lib/auth.tsx"
import { Field } from "../../../ui/Field.tsx"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"

/** Status, the schedule date (only when scheduled) and the author. */
export const SettingsTab = ({ id, draft, errors, change }: TabProps) => {
  const signedIn = AuthContext.useSelector((snapshot) => snapshot.context.user)
  return (
    <Flex direction="column" gap="4" maxWidth="520px">
      <Field label={t.status} htmlFor={`${id}-status`}>
        <Select.Root value={draft.status} onValueChange={(value) => change({ status: value as PostDraft["status"] })}>
          <Select.Trigger id={`${id}-status`} />
          <Select.Content>
            {(["draft", "published", "scheduled"] as const).map((value) => <Select.Item key={value} value={value}>{t.statuses[value]}</Select.Item>)}
          </Select.Content>
        </Select.Root>
      </Field>
      {draft.status === "scheduled" && (
        <Field label={t.scheduleDate} htmlFor={`${id}-schedule`} error={errors.scheduledAt} hint={t.scheduleHint}>
          <TextField.Root
            id={`${id}-schedule`}
            type="datetime-local"
            value={draft.scheduledAt}
            aria-invalid={errors.scheduledAt !== undefined}
            onChange={(event) => change({ scheduledAt: event.target.value })}
          />
        </Field>
      )}
      <Field label={t.authorUsername} htmlFor={`${id}-author`} hint={t.authorUsernameHint}>
        <TextField.Root
          id={`${id}-author`}
          value={draft.authorUsername}
          placeholder={signedIn?.name ?? signedIn?.email ?? ""}
          onChange={(event) => change({ authorUsername: event.target.value })}
        />
      </Field>
      <Field label={t.authorCredentials} htmlFor={`${id}-credentials`}>
        <TextField.Root id={`${id}-credentials`} value={draft.authorCredentials} onChange={(event) => change({ authorCredentials: event.target.value })} />
      </Field>
    </Flex>
  )
}
