import { Flex, Spinner, Text, TextArea, TextField } from "@radix-ui/themes"
import { lazy, Suspense } from "react"
import { Field } from "../../../ui/Field.tsx"
import { FeaturedImageField } from "../../../ui/FeaturedImageField.tsx"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"

/** BlockNote is big: it loads only when an editor opens, never with the list or the rest of the console. */
const RichTextEditor = lazy(() => import("../RichTextEditor.tsx"))

/** Title, body, excerpt and featured image. */
export const ContentTab = ({ id, draft, errors, change, initialHtml, token }: TabProps & { readonly initialHtml: string; readonly token: string }) => {
  const titleId = `${id}-title`
  const bodyLabel = `${id}-body-label`
  return (
    <Flex direction="column" gap="4">
      <Field label={t.postTitle} htmlFor={titleId} error={errors.title}>
        {/* The editor opens where typing starts: on the title. */}
        <TextField.Root
          id={titleId}
          size="3"
          autoFocus
          value={draft.title}
          aria-invalid={errors.title !== undefined}
          aria-describedby={errors.title === undefined ? undefined : `${titleId}-error`}
          onChange={(event) => change({ title: event.target.value })}
        />
      </Field>
      <Flex direction="column" gap="1">
        <Text id={bodyLabel} size="2" weight="medium">{t.body}</Text>
        <Text size="1" color="gray">{t.bodyKeys}</Text>
        <Suspense fallback={<Flex gap="2" align="center" role="status"><Spinner /><Text color="gray">Loading the editor…</Text></Flex>}>
          <RichTextEditor
            initialHtml={initialHtml}
            labelledBy={bodyLabel}
            describedBy={errors.content === undefined ? undefined : `${id}-body-error`}
            invalid={errors.content !== undefined}
            onChange={(content) => change({ content })}
            onLeave={() => document.getElementById(`${id}-excerpt`)?.focus()}
          />
        </Suspense>
        {errors.content !== undefined && <Text id={`${id}-body-error`} size="1" color="red" role="alert">{errors.content}</Text>}
      </Flex>
      <Field label={t.excerpt} htmlFor={`${id}-excerpt`}>
        <TextArea id={`${id}-excerpt`} rows={3} value={draft.excerpt} onChange={(event) => change({ excerpt: event.target.value })} />
      </Field>
      <FeaturedImageField value={draft.featuredImage} onChange={(featuredImage) => change({ featuredImage })} token={token} />
    </Flex>
  )
}
