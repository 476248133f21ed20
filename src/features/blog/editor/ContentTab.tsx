import { Flex, Spinner, Text, TextArea, TextField } from "@radix-ui/themes"
import { lazy, Suspense } from "react"
import { uploadImage } from "../../../api/uploads.ts"
import { fieldView, inLabelWords } from "../../../lib/form/words.ts"
import { FeaturedImageField, imageFieldTexts } from "../../../ui/FeaturedImageField.tsx"
import { FieldFrame } from "../../../ui/FieldFrame.tsx"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"
import { patiently } from "../../../ui/deferred.tsx"

/** BlockNote is big: it loads only when an editor opens, never with the list or the rest of the console. */
const RichTextEditor = lazy(() => patiently(() => import("../RichTextEditor.tsx")))

/** Title, body, excerpt and featured image. */
export const ContentTab = ({ id, draft, errors, change, initialHtml }: TabProps & { readonly initialHtml: string }) => {
  const title = fieldView(`${id}-title`, t.postTitle, errors.title, { required: true })
  const excerpt = fieldView(`${id}-excerpt`, t.excerpt, errors.excerpt)
  const bodyLabel = `${id}-body-label`
  const bodyError = errors.content === undefined ? undefined : inLabelWords(t.body, errors.content)
  return (
    <Flex direction="column" gap="4">
      <FieldFrame view={title}>
        {/* The editor opens where typing starts: on the title. */}
        <TextField.Root {...title.control} size="3" autoFocus value={draft.title} onChange={(event) => change({ title: event.target.value })} />
      </FieldFrame>
      <Flex direction="column" gap="1">
        <Text id={bodyLabel} size="2" weight="medium">
          {t.body}
        </Text>
        <Text size="1" color="gray">
          {t.bodyKeys}
        </Text>
        <Suspense
          fallback={
            // The editor's own box, so nothing below it moves when it arrives (a click meant for a
            // field below lands on it).
            <div className="rich-text" role="status">
              <div className="rich-text-toolbar rich-text-toolbar-waiting" />
              <Flex className="rich-text-waiting" gap="2" align="center" justify="center">
                <Spinner />
                <Text color="gray">Loading the editor…</Text>
              </Flex>
            </div>
          }
        >
          <RichTextEditor
            initialHtml={initialHtml}
            labelledBy={bodyLabel}
            describedBy={bodyError === undefined ? undefined : `${id}-body-error`}
            invalid={bodyError !== undefined}
            onChange={(content) => change({ content })}
            onLeave={() => document.getElementById(excerpt.id)?.focus()}
          />
        </Suspense>
        {bodyError !== undefined && (
          <Text id={`${id}-body-error`} size="1" color="red" weight="medium">
            {bodyError}
          </Text>
        )}
      </Flex>
      <FieldFrame view={excerpt}>
        <TextArea {...excerpt.control} rows={3} value={draft.excerpt} onChange={(event) => change({ excerpt: event.target.value })} />
      </FieldFrame>
      <FeaturedImageField
        view={fieldView(`${id}-featured-image`, imageFieldTexts.label, errors.featuredImage)}
        value={draft.featuredImage}
        onChange={(featuredImage) => change({ featuredImage })}
        upload={(...args) => uploadImage(...args)}
      />
    </Flex>
  )
}
