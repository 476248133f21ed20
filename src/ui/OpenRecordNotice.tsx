import { Callout } from "@radix-ui/themes"
import type { OpenRecord } from "../lib/store/use-open-record.ts"

export const openRecordTexts = {
  gone: (noun: string) => `Someone else deleted this ${noun} since you opened it.`,
  changedWhileEditing: (noun: string) =>
    `Someone else changed this ${noun} since you opened it: saving would be refused. Cancel and open it again to start from their version.`,
  changed: (noun: string) => `Someone else changed this ${noun} since you opened it: it shows as it is now.`
} as const

/**
 * What happened to the record a dialog holds open (src/lib/store/use-open-record.ts), said where
 * the dialog's content starts, in words a screen reader says too: deleted, or changed (an edit
 * form keeps what was typed and says a save would be refused; a view shows the new values).
 */
export const OpenRecordNotice = ({
  record,
  noun,
  editing
}: {
  readonly record: Pick<OpenRecord<unknown>, "gone" | "changed">
  readonly noun: string
  readonly editing: boolean
}) => (
  <div role="status">
    {(record.gone || record.changed) && (
      <Callout.Root color={record.gone || editing ? "amber" : "gray"} size="1" mb="3">
        <Callout.Text>
          {record.gone ? openRecordTexts.gone(noun) : editing ? openRecordTexts.changedWhileEditing(noun) : openRecordTexts.changed(noun)}
        </Callout.Text>
      </Callout.Root>
    )}
  </div>
)
