import { Table, Text } from "@radix-ui/themes"
import type { FieldChange } from "../../../contract/history.ts"
import { richTextDiff } from "../../lib/rich-text-diff.ts"
import { isRichText } from "../../lib/rich-text.ts"
import { type DiffPart, wordDiff } from "../../lib/word-diff.ts"
import { fieldLabel, valueText } from "./reading.ts"
import { blockNames, formattingText, historyCopy } from "./texts.ts"

/** Words deleted and inserted, marked (with words a screen reader says) in both themes' colours. */
const Words = ({ parts }: { readonly parts: ReadonlyArray<DiffPart> }) => (
  <span className="history-diff">
    {parts.map((part, index) =>
      part.kind === "same" ? (
        <span key={index}>{part.text}</span>
      ) : part.kind === "deleted" ? (
        <del key={index}>
          <span className="visually-hidden">{historyCopy.deletedWord} </span>
          {part.text}
        </del>
      ) : (
        <ins key={index}>
          <span className="visually-hidden">{historyCopy.insertedWord} </span>
          {part.text}
        </ins>
      )
    )}
  </span>
)

/**
 * A post body's change as a reader sees it: only the blocks that changed, each named (a
 * paragraph, a list item), its words marked and its formatting changes said; a block that came
 * or went whole.
 */
const RichTextChange = ({ before, after }: { readonly before: string; readonly after: string }) => {
  const blocks = richTextDiff(before, after)
  const unchanged = blocks.filter((block) => block.kind === "same").length
  return (
    <div className="history-blocks">
      {blocks.map((block, index) =>
        block.kind === "same" ? null : (
          <div key={index} className="history-block">
            <Text as="div" size="1" color="gray">
              {blockNames[block.kind === "changed" ? block.after.kind : block.block.kind]}
            </Text>
            <Words parts={block.kind === "changed" ? block.words : [{ kind: block.kind === "deleted" ? "deleted" : "inserted", text: block.block.text }]} />
            {block.kind === "changed" && block.formatting.length > 0 && (
              <ul className="history-formatting">
                {block.formatting.map((change, at) => (
                  <li key={at}>{formattingText(change)}</li>
                ))}
              </ul>
            )}
          </div>
        )
      )}
      {unchanged > 0 && (
        <Text as="p" size="1" color="gray">
          {historyCopy.unchangedBlocks(unchanged)}
        </Text>
      )}
    </div>
  )
}

/** One field's change: a post body block by block, any other value as words. */
const Change = ({ before, after }: { readonly before: unknown; readonly after: unknown }) =>
  isRichText(before) || isRichText(after) ? (
    <RichTextChange before={typeof before === "string" ? before : ""} after={typeof after === "string" ? after : ""} />
  ) : (
    <Words parts={wordDiff(valueText(before), valueText(after))} />
  )

/** What changed, a field a row (a document's keys each a row of their own), or "No field changed." */
export const ChangesTable = ({ changes, caption }: { readonly changes: ReadonlyArray<FieldChange>; readonly caption: string }) =>
  changes.length === 0 ? (
    <Text as="p" size="2" color="gray">
      {historyCopy.noChanges}
    </Text>
  ) : (
    <Table.Root size="1" variant="surface">
      <caption className="visually-hidden">{caption}</caption>
      <Table.Header>
        <Table.Row>
          <Table.ColumnHeaderCell>{historyCopy.field}</Table.ColumnHeaderCell>
          <Table.ColumnHeaderCell>{historyCopy.change}</Table.ColumnHeaderCell>
        </Table.Row>
      </Table.Header>
      <Table.Body>
        {changes.map((change) => (
          <Table.Row key={change.field}>
            <Table.RowHeaderCell>{fieldLabel(change.field)}</Table.RowHeaderCell>
            <Table.Cell>
              {change.hidden ? <Text color="gray">{historyCopy.hiddenValue}</Text> : <Change before={change.before} after={change.after} />}
            </Table.Cell>
          </Table.Row>
        ))}
      </Table.Body>
    </Table.Root>
  )
