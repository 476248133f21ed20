import { Flex, TextArea, TextField } from "@radix-ui/themes"
import { fieldView } from "../../../lib/form/words.ts"
import { ChipsInput } from "../../../ui/ChipsInput.tsx"
import { FieldFrame } from "../../../ui/FieldFrame.tsx"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"

/** The search-engine title, description and keywords. */
export const SeoTab = ({ id, draft, errors, change }: TabProps) => {
  const title = fieldView(`${id}-seo-title`, t.seoTitle, errors.seoTitle)
  const description = fieldView(`${id}-seo-description`, t.seoDescription, errors.seoDescription)
  return (
    <Flex direction="column" gap="4" maxWidth="620px">
      <FieldFrame view={title}>
        <TextField.Root {...title.control} value={draft.seoTitle} onChange={(event) => change({ seoTitle: event.target.value })} />
      </FieldFrame>
      <FieldFrame view={description}>
        <TextArea {...description.control} rows={3} value={draft.seoDescription} onChange={(event) => change({ seoDescription: event.target.value })} />
      </FieldFrame>
      <ChipsInput
        view={fieldView(`${id}-keywords`, t.seoKeywords, errors.seoKeywords, { hint: t.keywordsHint })}
        values={draft.seoKeywords}
        onChange={(values) => change({ seoKeywords: values })}
      />
    </Flex>
  )
}
