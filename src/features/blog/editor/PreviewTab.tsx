import { Heading, Text } from "@radix-ui/themes"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"

/** The post as a reader will see it. */
export const PreviewTab = ({ draft }: Pick<TabProps, "draft">) => (
  <article className="post-preview" aria-label={t.tabs.preview}>
    {draft.featuredImage !== "" && <img src={draft.featuredImage} alt="" />}
    <Heading as="h2" size="8" mb="2">
      {draft.title.trim() === "" ? t.previewEmpty : draft.title}
    </Heading>
    {draft.excerpt.trim() !== "" && (
      <Text as="p" size="4" color="gray" mb="4">
        {draft.excerpt}
      </Text>
    )}
    <div className="post-body" dangerouslySetInnerHTML={{ __html: draft.content }} />
  </article>
)
