import { PlusIcon } from "@radix-ui/react-icons"
import { Box, Button, Checkbox, Flex, Text, TextField } from "@radix-ui/themes"
import { useEffect, useState } from "react"
import type { BlogCategory } from "../../../../contract/blog.ts"
import { flagNames } from "../../../../machines/blog-editor.ts"
import { failureOf } from "../../../../contract/call-failure.ts"
import { createCategory, listCategories, listTags } from "../../../api/blog.ts"
import { ChipsInput } from "../../../ui/ChipsInput.tsx"
import { FieldFrame } from "../../../ui/FieldFrame.tsx"
import { blogTexts as t } from "../texts.ts"
import type { TabProps } from "./tab.ts"
import { fieldView } from "../../../lib/form/words.ts"

/** Categories (a new one created in place), the six flags, the sponsor and the tags. */
export const CategoriesTab = ({ id, draft, errors, change }: TabProps) => {
  const sponsorName = fieldView(`${id}-sponsor-name`, t.sponsorName, errors.sponsorName)
  const sponsorLogo = fieldView(`${id}-sponsor-logo`, t.sponsorLogo, errors.sponsorLogo)
  const sponsorUrl = fieldView(`${id}-sponsor-url`, t.sponsorUrl, errors.sponsorUrl)
  const [categories, setCategories] = useState<ReadonlyArray<BlogCategory>>([])
  const [tags, setTags] = useState<ReadonlyArray<string>>([])
  useEffect(() => {
    listCategories().then(setCategories, () => undefined)
    listTags().then(setTags, () => undefined)
  }, [])
  const [newCategory, setNewCategory] = useState("")
  const [categoryError, setCategoryError] = useState<string | null>(null)
  const addCategory = async () => {
    const name = newCategory.trim()
    if (name === "") return
    try {
      const category = await createCategory(name)
      setCategories((current) => (current.some((c) => c.slug === category.slug) ? current : [...current, category]))
      if (!draft.categories.includes(category.slug)) change({ categories: [...draft.categories, category.slug] })
      setNewCategory("")
      setCategoryError(null)
    } catch (failure) {
      setCategoryError(failureOf(failure).message)
    }
  }
  return (
    <Flex direction="column" gap="5" maxWidth="620px">
      <fieldset className="plain-fieldset">
        <legend>
          <Text size="2" weight="medium">
            {t.categories}
          </Text>
        </legend>
        {categories.length === 0 && (
          <Text size="2" color="gray">
            {t.noCategories}
          </Text>
        )}
        <Flex direction="column" gap="2" mt="2">
          {categories.map((category) => (
            <Text as="label" size="2" key={category.slug}>
              <Flex gap="2" align="center">
                <Checkbox
                  checked={draft.categories.includes(category.slug)}
                  onCheckedChange={(checked) =>
                    change({ categories: checked === true ? [...draft.categories, category.slug] : draft.categories.filter((c) => c !== category.slug) })
                  }
                />
                {category.name}
              </Flex>
            </Text>
          ))}
        </Flex>
        <Flex gap="2" mt="3" align="end">
          <Box flexGrow="1">
            <TextField.Root
              aria-label={t.newCategory}
              placeholder={t.newCategory}
              value={newCategory}
              onChange={(event) => setNewCategory(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault()
                  void addCategory()
                }
              }}
            />
          </Box>
          <Button type="button" variant="soft" disabled={newCategory.trim() === ""} onClick={() => void addCategory()}>
            <PlusIcon /> {t.addCategory}
          </Button>
        </Flex>
        {categoryError !== null && (
          <Text size="1" color="red" role="alert">
            {categoryError}
          </Text>
        )}
      </fieldset>
      <fieldset className="plain-fieldset">
        <legend>
          <Text size="2" weight="medium">
            {t.flagsTitle}
          </Text>
        </legend>
        <Flex gap="4" wrap="wrap" mt="2">
          {flagNames.map((flag) => (
            <Text as="label" size="2" key={flag}>
              <Flex gap="2" align="center">
                <Checkbox checked={draft.flags[flag]} onCheckedChange={(checked) => change({ flags: { ...draft.flags, [flag]: checked === true } })} />
                {t.flags[flag]}
              </Flex>
            </Text>
          ))}
        </Flex>
      </fieldset>
      <fieldset className="plain-fieldset">
        <legend>
          <Text size="2" weight="medium">
            {t.sponsorTitle}
          </Text>
        </legend>
        <Flex direction="column" gap="3" mt="2">
          <FieldFrame view={sponsorName}>
            <TextField.Root {...sponsorName.control} value={draft.sponsorName} onChange={(event) => change({ sponsorName: event.target.value })} />
          </FieldFrame>
          <FieldFrame view={sponsorLogo}>
            <TextField.Root {...sponsorLogo.control} type="url" value={draft.sponsorLogo} onChange={(event) => change({ sponsorLogo: event.target.value })} />
          </FieldFrame>
          <FieldFrame view={sponsorUrl}>
            <TextField.Root {...sponsorUrl.control} type="url" value={draft.sponsorUrl} onChange={(event) => change({ sponsorUrl: event.target.value })} />
          </FieldFrame>
        </Flex>
      </fieldset>
      <ChipsInput
        view={fieldView(`${id}-tags`, t.tags, errors.tags, { hint: t.tagsHint })}
        values={draft.tags}
        suggestions={tags}
        onChange={(values) => change({ tags: values })}
      />
    </Flex>
  )
}
