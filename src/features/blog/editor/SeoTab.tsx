import { Flex, TextArea, TextField } from "@radix-ui/themes"
import { ChipsInput } from "../../../ui/ChipsInput.tsx"
import { Field } from "../../../ui/Field.tsx"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"
import { fieldView } from "../../../lib/form/words.ts"

/** The search-engine title, description and keywords. */
export const SeoTab = ({ id, draft, change }: TabProps) => (
  <Flex direction="column" gap="4" maxWidth="620px">
    <Field label={t.seoTitle} htmlFor={`${id}-seo-title`}>
      <TextField.Root id={`${id}-seo-title`} value={draft.seoTitle} onChange={(event) => change({ seoTitle: event.target.value })} />
    </Field>
    <Field label={t.seoDescription} htmlFor={`${id}-seo-description`}>
      <TextArea id={`${id}-seo-description`} rows={3} value={draft.seoDescription} onChange={(event) => change({ seoDescription: event.target.value })} />
    </Field>
    <ChipsInput view={fieldView(`${id}-keywords`, t.seoKeywords, undefined, { hint: t.keywordsHint })} values={draft.seoKeywords} onChange={(values) => change({ seoKeywords: values })} />
  </Flex>
)
