import { PlusIcon } from "@radix-ui/react-icons"
import { Badge, Button, Text } from "@radix-ui/themes"
import { useCallback, useEffect, useMemo, useState } from "react"
import { useLocation } from "wouter"
import type { BlogCategory, BlogPost } from "../../../contract/blog.ts"
import { postStatuses } from "../../../contract/blog-rules.ts"
import { deletePost, exportPosts, listCategories, listPosts } from "../../api/blog.ts"
import { type ListAction, type ListCommand, useListScreen } from "../../lib/list/use-list-screen.ts"
import { filterOf } from "../../lib/list/declarations.ts"
import { ListScreen, listTextsOf } from "../../ui/list/ListScreen.tsx"
import type { Column } from "../../ui/list/ListTable.tsx"
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
  store: "blog" as const,
  idOf: (post: BlogPost) => post._id,
  history: { kind: "blog" as const, labelOf: (post: BlogPost) => post.title },
  exportCsv: exportPosts,
  filters: [
    filterOf("status", t.statusFilter, t.allStatuses, postStatuses, (value) => t.statuses[value], {
      show: (label) => `Show ${label.toLowerCase()} posts`,
      all: "Show all posts"
    })
  ]
}
const deleting = {
  title: t.deleteTitle,
  question: t.confirmDelete,
  subject: (post: BlogPost) => post.title,
  texts: t,
  failed: t.deleteFailed,
  removes: true,
  run: deletePost
}

/** docs/product-spec.md §2 "Blog management": the posts, filtered by status and searched, with Add, Edit and Delete, on the one list screen. */
export const BlogScreen = () => {
  const [, navigate] = useLocation()
  const [categories, setCategories] = useState<ReadonlyArray<BlogCategory>>([])
  useEffect(() => {
    listCategories().then(setCategories, () => setCategories([]))
  }, [])
  const edit = useCallback((post: BlogPost) => navigate(`/blog/${encodeURIComponent(post.slug)}/edit`), [navigate])
  const actions = useMemo(
    (): ReadonlyArray<ListAction<BlogPost>> => [
      { id: "blog:open", key: "Enter", hint: "edit", inPalette: false, label: (post) => `Edit "${post.title}"`, run: edit },
      { id: "blog:edit", key: "e", hint: "edit", label: (post) => `Edit "${post.title}"`, run: edit, button: { label: t.edit } },
      {
        id: "blog:delete",
        key: "Delete",
        hint: "remove",
        label: (post) => `Delete "${post.title}"`,
        confirm: deleting,
        button: { label: t.delete, tone: "red" }
      }
    ],
    [edit]
  )
  const commands: ReadonlyArray<ListCommand> = [
    { id: "blog:new-here", label: "New post", shortcut: ["n"], hint: "new post", keywords: ["add", "write", "create"], run: () => navigate("/blog/new") }
  ]
  const screen = useListScreen(spec, { actions, idle: true, commands })

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
  return (
    <ListScreen
      screen={screen}
      texts={listTextsOf(t)}
      view={{ table: { caption: t.title, columns } }}
      tools={
        <Button onClick={() => navigate("/blog/new")}>
          <PlusIcon /> {t.add}
        </Button>
      }
    />
  )
}
