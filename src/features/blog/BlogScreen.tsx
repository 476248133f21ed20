import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Text } from "@radix-ui/themes"
import { useCallback, useEffect, useMemo, useState } from "react"
import { useLocation } from "wouter"
import type { BlogCategory, BlogPost } from "../../../contract/blog.ts"
import { postStatuses } from "../../../contract/blog-rules.ts"
import { deletePost, exportPosts, listCategories, listPosts } from "../../api/blog.ts"
import { useDialogAction } from "../../lib/use-dialog-action.ts"
import { type Command, useRegisterCommands } from "../../lib/commands.tsx"
import { useListScreen } from "../../lib/list/use-list-screen.ts"
import type { RowAction } from "../../lib/list/use-row-focus.ts"
import { filterOf, ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import type { Column } from "../../ui/list/ListTable.tsx"
import { RowActions } from "../../ui/list/RowActions.tsx"
import { ConfirmDelete } from "../../ui/ConfirmDelete.tsx"
import { blogQuerySpec } from "./list-query.ts"
import { blogTexts as t } from "./texts.ts"

const statusColors = { draft: "gray", published: "green", scheduled: "blue", archived: "orange" } as const

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
const date = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" })

/** The date column: the publication date, or when a scheduled post will go out. */
export const publicationText = (post: BlogPost) =>
  post.status === "scheduled" && post.scheduledAt !== null
    ? t.scheduledFor(dateTime.format(new Date(post.scheduledAt)))
    : post.publishedAt !== null
      ? date.format(new Date(post.publishedAt))
      : t.notPublished

const spec = {
  title: t.title,
  noun: "posts",
  querySpec: blogQuerySpec,
  fetchPage: listPosts,
  idOf: (post: BlogPost) => post._id,
  history: { kind: "blog" as const, labelOf: (post: BlogPost) => post.title },
  exportCsv: exportPosts
}
const filters = [filterOf("status", t.statusFilter, t.allStatuses, postStatuses, (value) => t.statuses[value])]

/** docs/product-spec.md §2 "Blog management": the posts, filtered by status and searched, with Add, Edit and Delete, on the one list screen. */
export const BlogScreen = () => {
  const [, navigate] = useLocation()
  const [categories, setCategories] = useState<ReadonlyArray<BlogCategory>>([])
  useEffect(() => {
    listCategories().then(setCategories, () => setCategories([]))
  }, [])
  const deleting = useDialogAction<BlogPost>(t.deleteFailed)
  const openDeleting = deleting.open
  const edit = useCallback((post: BlogPost) => navigate(`/blog/${encodeURIComponent(post.slug)}/edit`), [navigate])
  const actions = useMemo(
    (): ReadonlyArray<RowAction<BlogPost>> => [
      { id: "blog:edit", key: "e", label: (post) => `Edit "${post.title}"`, run: edit },
      { id: "blog:open", key: "Enter", inPalette: false, label: (post) => `Edit "${post.title}"`, run: edit },
      { id: "blog:delete", key: "Delete", label: (post) => `Delete "${post.title}"`, run: openDeleting }
    ],
    [edit, openDeleting]
  )
  const idle = deleting.state === null
  const screen = useListScreen(spec, { actions, idle })
  const { url, query } = screen
  const status = query.filters.status
  const reload = screen.list.reload
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = t.title
    return [
      {
        id: "blog:new-here",
        label: "New post",
        group,
        shortcut: ["n"],
        keywords: ["add", "write", "create"],
        guard: () => idle,
        run: () => navigate("/blog/new")
      },
      ...postStatuses.map((value): Command => ({
        id: `blog:filter:${value}`,
        label: `Show ${t.statuses[value].toLowerCase()} posts`,
        group,
        guard: () => idle && status !== value,
        run: () => url.filter("status", value)
      })),
      { id: "blog:filter:all", label: "Show all posts", group, guard: () => idle && status !== undefined, run: () => url.filter("status", "") }
    ]
  }, [idle, status, url, navigate])
  useRegisterCommands(commands)

  // The same columns and row buttons from one render to the next, so rows re-render only when their post changed.
  const columns = useMemo((): ReadonlyArray<Column<BlogPost>> => {
    const categoryName = (slug: string) => categories.find((category) => category.slug === slug)?.name ?? slug
    return [
      {
        label: "Title",
        cell: (post) => (
          <>
            <Text as="div" weight="medium">
              {post.title}
            </Text>
            {post.excerpt !== "" && (
              <Text as="div" size="1" color="gray" className="post-excerpt">
                {post.excerpt}
              </Text>
            )}
          </>
        )
      },
      {
        label: "Status",
        cell: (post) => (
          <Badge color={statusColors[post.status]} highContrast>
            {post.status}
          </Badge>
        )
      },
      {
        label: "Category",
        cell: (post) => (post.categories.length === 0 ? <Text color="gray">{t.uncategorized}</Text> : post.categories.map(categoryName).join(", "))
      },
      { label: "Author", cell: (post) => post.author.username },
      { label: "Published", cell: publicationText },
      { label: "Views", cell: (post) => post.views }
    ]
  }, [categories])
  const rowActions = useCallback(
    (post: BlogPost) => (
      <RowActions
        actions={[
          { label: t.edit, onClick: () => edit(post) },
          { label: t.delete, danger: true, onClick: () => openDeleting(post) }
        ]}
      />
    ),
    [edit, openDeleting]
  )

  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      view={{ table: { caption: t.title, columns, actions: rowActions } }}
      filters={filters}
      tools={
        <Button onClick={() => navigate("/blog/new")}>
          <PlusIcon /> {t.add}
        </Button>
      }
    >
      <ConfirmDelete
        state={deleting.state === null ? null : { subject: deleting.state.target.title, busy: deleting.state.busy, error: deleting.state.error }}
        title={t.deleteTitle}
        question={t.confirmDelete}
        texts={t}
        onClose={deleting.close}
        onConfirm={() => void deleting.run((post) => deletePost(post), reload)}
      />
    </ListScreen>
  )
}
