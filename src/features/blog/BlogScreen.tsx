import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Flex, Select, Text } from "@radix-ui/themes"
import { useCallback, useEffect, useMemo, useState } from "react"
import { useLocation } from "wouter"
import type { BlogCategory, BlogPost } from "../../../contract/blog.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { postStatuses } from "../../../contract/blog-rules.ts"
import { deletePost, listCategories, listPosts, postExportPathOf } from "../../api/blog.ts"
import { AuthContext } from "../../lib/auth.tsx"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { useCsvExport } from "../../lib/list/export-csv.ts"
import { listCommands } from "../../lib/list/list-commands.ts"
import { useUrlQuery } from "../../lib/list/url-query.ts"
import { useDebouncedSearch } from "../../lib/list/use-debounced-search.ts"
import { useList } from "../../lib/list/use-list.ts"
import { useRowKeyboard } from "../../lib/list/use-row-keyboard.ts"
import { ExportCsvButton, ListFrame } from "../../ui/list/ListFrame.tsx"
import { type Column, ListTable } from "../../ui/list/ListTable.tsx"
import { RowActions } from "../../ui/list/RowActions.tsx"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import { blogQuerySpec } from "./list-query.ts"
import { blogTexts as t } from "./texts.ts"

const statusColors = { draft: "gray", published: "green", scheduled: "blue", archived: "orange" } as const

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
const date = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" })

/** The date column: the publication date, or when a scheduled post will go out. */
export const publicationText = (post: BlogPost) =>
  post.status === "scheduled" && post.scheduledAt !== null
    ? t.scheduledFor(dateTime.format(new Date(post.scheduledAt)))
    : post.publishedAt !== null ? date.format(new Date(post.publishedAt)) : t.notPublished

/** docs/product-spec.md §2 "Blog management": the posts, filtered by status and searched, with Add, Edit and Delete. */
export const BlogScreen = () => {
  const [, navigate] = useLocation()
  const url = useUrlQuery(blogQuerySpec)
  const { query } = url
  const status = query.filters.status
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const list = useList(query, listPosts)
  const reload = list.reload
  const [categories, setCategories] = useState<ReadonlyArray<BlogCategory>>([])
  useEffect(() => {
    listCategories(token).then(setCategories, () => setCategories([]))
  }, [token])
  const [searchText, setSearchText] = useDebouncedSearch(query.search, (search) => url.go({ search, page: 1 }, { replace: true }))
  const csv = useCsvExport(() => postExportPathOf(query), "blog-posts.csv")

  const [deleting, setDeleting] = useState<{ post: BlogPost; busy: boolean; error: string | null } | null>(null)
  const confirmDelete = async () => {
    if (deleting === null) return
    setDeleting({ ...deleting, busy: true, error: null })
    try {
      await deletePost(token, deleting.post)
      setDeleting(null)
      reload()
    } catch (error) {
      setDeleting({ ...deleting, busy: false, error: `${t.deleteFailed}: ${failureOf(error).message}` })
    }
  }
  const edit = useCallback((post: BlogPost) => navigate(`/blog/${encodeURIComponent(post.slug)}/edit`), [navigate])
  const keyboard = useRowKeyboard<BlogPost, HTMLTableRowElement>(list.rows, {
    open: edit,
    edit,
    remove: (post) => setDeleting({ post, busy: false, error: null })
  })
  const focusedPost = keyboard.focusedRow
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = "Blog"
    const idle = () => deleting === null
    return [
      { id: "blog:new-here", label: "New post", group, shortcut: ["n"], keywords: ["add", "write", "create"], guard: idle, run: () => navigate("/blog/new") },
      ...(focusedPost === undefined ? [] : [
        { id: "blog:edit", label: `Edit "${focusedPost.title}"`, group, guard: idle, run: () => edit(focusedPost) },
        { id: "blog:delete", label: `Delete "${focusedPost.title}"`, group, guard: idle, run: () => setDeleting({ post: focusedPost, busy: false, error: null }) }
      ]),
      ...postStatuses.map((value): Command => ({
        id: `blog:filter:${value}`,
        label: `Show ${t.statuses[value].toLowerCase()} posts`,
        group,
        guard: () => idle() && status !== value,
        run: () => url.filter("status", value)
      })),
      { id: "blog:filter:all", label: "Show all posts", group, guard: () => idle() && status !== undefined, run: () => url.filter("status", "") },
      ...listCommands({ group, noun: "posts", list, url, csv }).map((command): Command => ({ ...command, guard: () => idle() && (command.guard?.() ?? true) }))
    ]
  }, [focusedPost, deleting, status, query, list.pagination, csv.busy])
  useRegisterCommands(commands)

  // The same columns and row buttons from one render to the next, so rows re-render only when their post changed.
  const columns = useMemo((): ReadonlyArray<Column<BlogPost>> => {
    const categoryName = (slug: string) => categories.find((category) => category.slug === slug)?.name ?? slug
    return [
    {
      label: "Title",
      cell: (post) => (
        <>
          <Text as="div" weight="medium">{post.title}</Text>
          {post.excerpt !== "" && <Text as="div" size="1" color="gray" className="post-excerpt">{post.excerpt}</Text>}
        </>
      )
    },
    { label: "Status", cell: (post) => <Badge color={statusColors[post.status]} highContrast>{post.status}</Badge> },
    {
      label: "Category",
      cell: (post) => post.categories.length === 0 ? <Text color="gray">{t.uncategorized}</Text> : post.categories.map(categoryName).join(", ")
    },
    { label: "Author", cell: (post) => post.author.username },
    { label: "Published", cell: publicationText },
    { label: "Views", cell: (post) => post.views }
    ]
  }, [categories])
  const rowActions = useCallback((post: BlogPost) => (
    <RowActions actions={[
      { label: t.edit, onClick: () => edit(post) },
      { label: t.delete, danger: true, onClick: () => setDeleting({ post, busy: false, error: null }) }
    ]} />
  ), [edit])

  return (
    <Screen title={t.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={list.loading && !list.firstLoad} />
        <Select.Root value={status ?? "all"} onValueChange={(value) => url.filter("status", value === "all" ? "" : value)}>
          <Select.Trigger aria-label={t.statusFilter} />
          <Select.Content>
            <Select.Item value="all">{t.allStatuses}</Select.Item>
            {postStatuses.map((value) => <Select.Item key={value} value={value}>{t.statuses[value]}</Select.Item>)}
          </Select.Content>
        </Select.Root>
        <Button onClick={() => navigate("/blog/new")}><PlusIcon /> {t.add}</Button>
        <ExportCsvButton busy={csv.busy} onExport={csv.run} />
      </Flex>
      <ListFrame list={list} loadingText={t.loading} loadFailedText={t.loadFailed} onPage={(page) => url.go({ page })} exportError={csv.error}>
        <ListTable
          caption={t.title}
          columns={columns}
          list={list}
          keyboard={keyboard}
          empty={t.empty}
          actions={rowActions}
        />
      </ListFrame>
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <ConfirmDelete
        state={deleting === null ? null : { subject: deleting.post.title, busy: deleting.busy, error: deleting.error }}
        title={t.deleteTitle}
        question={t.confirmDelete}
        texts={t}
        onClose={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </Screen>
  )
}
