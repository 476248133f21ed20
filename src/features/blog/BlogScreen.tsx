import { PlusIcon, ReloadIcon } from "@radix-ui/react-icons"
import { AlertDialog, Badge, Button, Callout, Flex, Select, Spinner, Table, Text } from "@radix-ui/themes"
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react"
import { useLocation, useSearch } from "wouter"
import type { BlogCategory, BlogPost, PostStatus } from "../../../contract/blog.ts"
import { failureOf } from "../../../machines/call-failure.ts"
import { deletePost, listCategories, listPosts } from "../../api/blog.ts"
import { AuthContext } from "../../app/auth.tsx"
import { type Command, useRegisterCommands } from "../../app/commands.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { SearchField } from "../../ui/SearchField.tsx"
import { blogTexts as t } from "./texts.ts"

const SEARCH_DELAY_MS = 250
const statuses: ReadonlyArray<PostStatus> = ["draft", "published", "scheduled", "archived"]
const statusColors = { draft: "gray", published: "green", scheduled: "blue", archived: "orange" } as const

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" })
const date = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" })

/** The date column: the publication date, or when a scheduled post will go out. */
export const publicationText = (post: BlogPost) =>
  post.status === "scheduled" && post.scheduledAt !== null
    ? t.scheduledFor(dateTime.format(new Date(post.scheduledAt)))
    : post.publishedAt !== null ? date.format(new Date(post.publishedAt)) : t.notPublished

type Load =
  | { readonly phase: "loading"; readonly posts: ReadonlyArray<BlogPost> | null }
  | { readonly phase: "ready"; readonly posts: ReadonlyArray<BlogPost> }
  | { readonly phase: "failed"; readonly posts: ReadonlyArray<BlogPost> | null; readonly error: string }

const isStatus = (value: string | null): value is PostStatus => value !== null && (statuses as ReadonlyArray<string>).includes(value)

/** Spec section 2 "Blog management": the posts, filtered by status and searched, with Add, Edit and Delete. */
export const BlogScreen = () => {
  const [, navigate] = useLocation()
  const params = new URLSearchParams(useSearch())
  const statusParam = params.get("status")
  const status = isStatus(statusParam) ? statusParam : undefined
  const search = params.get("search") ?? ""
  const auth = AuthContext.useActorRef()
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""

  const [load, setLoad] = useState<Load>({ phase: "loading", posts: null })
  const [categories, setCategories] = useState<ReadonlyArray<BlogCategory>>([])
  const [reloads, setReloads] = useState(0)
  const reload = useCallback(() => setReloads((n) => n + 1), [])
  useEffect(() => {
    let current = true
    setLoad((previous) => ({ phase: "loading", posts: previous.posts }))
    listPosts(token, { status, search }).then(
      (posts) => current && setLoad({ phase: "ready", posts }),
      (error: unknown) => {
        if (!current) return
        const failure = failureOf(error)
        if (failure.status === 401) auth.send({ type: "SESSION_EXPIRED" })
        setLoad((previous) => ({ phase: "failed", posts: previous.posts, error: failure.message }))
      }
    )
    return () => void (current = false)
  }, [token, status, search, reloads])
  useEffect(() => {
    listCategories(token).then(setCategories, () => setCategories([]))
  }, [token])
  const categoryName = (slug: string) => categories.find((category) => category.slug === slug)?.name ?? slug

  const urlFor = (next: { status?: PostStatus | undefined; search?: string }) => {
    const query = new URLSearchParams()
    const nextStatus = "status" in next ? next.status : status
    const nextSearch = next.search ?? search
    if (nextStatus !== undefined) query.set("status", nextStatus)
    if (nextSearch.trim() !== "") query.set("search", nextSearch.trim())
    const text = query.toString()
    return text === "" ? "/blog" : `/blog?${text}`
  }
  const [searchText, setSearchText] = useState(search)
  useEffect(() => {
    if (searchText.trim() === search.trim()) return
    const timer = setTimeout(() => navigate(urlFor({ search: searchText }), { replace: true }), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [searchText, search, status])

  const posts = load.posts ?? []
  const [focused, setFocused] = useState<number | null>(null)
  const rowRefs = useRef<Array<HTMLTableRowElement | null>>([])
  const focusRow = (index: number) => rowRefs.current[Math.max(0, Math.min(posts.length - 1, index))]?.focus()

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
  const edit = (post: BlogPost) => navigate(`/blog/${encodeURIComponent(post.slug)}/edit`)
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, index: number, post: BlogPost) => {
    if (event.target !== event.currentTarget || event.ctrlKey || event.metaKey || event.altKey) return
    const actions: Record<string, () => void> = {
      ArrowDown: () => focusRow(index + 1),
      j: () => focusRow(index + 1),
      ArrowUp: () => focusRow(index - 1),
      k: () => focusRow(index - 1),
      Enter: () => edit(post),
      e: () => edit(post),
      Delete: () => setDeleting({ post, busy: false, error: null })
    }
    const action = actions[event.key]
    if (action !== undefined) {
      event.preventDefault()
      action()
    }
  }

  const focusedPost = focused === null ? undefined : posts[focused]
  const commands = useMemo((): ReadonlyArray<Command> => {
    const group = "Blog"
    const idle = () => deleting === null
    return [
      { id: "blog:new-here", label: "New post", group, shortcut: ["n"], keywords: ["add", "write", "create"], guard: idle, run: () => navigate("/blog/new") },
      ...(focusedPost === undefined ? [] : [
        { id: "blog:edit", label: `Edit "${focusedPost.title}"`, group, guard: idle, run: () => edit(focusedPost) },
        { id: "blog:delete", label: `Delete "${focusedPost.title}"`, group, guard: idle, run: () => setDeleting({ post: focusedPost, busy: false, error: null }) }
      ]),
      ...statuses.map((value): Command => ({
        id: `blog:filter:${value}`,
        label: `Show ${t.statuses[value].toLowerCase()} posts`,
        group,
        guard: () => idle() && status !== value,
        run: () => navigate(urlFor({ status: value }))
      })),
      { id: "blog:filter:all", label: "Show all posts", group, guard: () => idle() && status !== undefined, run: () => navigate(urlFor({ status: undefined })) },
      { id: "blog:reload", label: "Reload the posts", group, guard: idle, run: reload }
    ]
  }, [focusedPost, deleting, status, search])
  useRegisterCommands(commands)

  const loading = load.phase === "loading"
  return (
    <Screen title={t.title}>
      <Flex gap="3" mb="3" wrap="wrap" align="center">
        <SearchField label={t.searchLabel} placeholder={t.searchPlaceholder} value={searchText} onChange={setSearchText} busy={loading && load.posts !== null} />
        <Select.Root value={status ?? "all"} onValueChange={(value) => navigate(urlFor({ status: isStatus(value) ? value : undefined }))}>
          <Select.Trigger aria-label={t.statusFilter} />
          <Select.Content>
            <Select.Item value="all">{t.allStatuses}</Select.Item>
            {statuses.map((value) => <Select.Item key={value} value={value}>{t.statuses[value]}</Select.Item>)}
          </Select.Content>
        </Select.Root>
        <Button onClick={() => navigate("/blog/new")}><PlusIcon /> {t.add}</Button>
      </Flex>
      {load.phase === "failed" && (
        <Callout.Root color="red" role="alert" mb="3">
          <Callout.Text>
            {t.loadFailed}: {load.error}{" "}
            <Button size="1" variant="soft" color="red" onClick={reload}><ReloadIcon /> {t.retry}</Button>
          </Callout.Text>
        </Callout.Root>
      )}
      {load.posts === null && loading
        ? <Flex gap="2" align="center" role="status"><Spinner /><Text color="gray">{t.loading}</Text></Flex>
        : (
          <Table.Root variant="surface" aria-busy={loading}>
            <caption className="visually-hidden">{t.title}</caption>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeaderCell>Title</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Status</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Category</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Author</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Published</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Views</Table.ColumnHeaderCell>
                <Table.ColumnHeaderCell>Actions</Table.ColumnHeaderCell>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {posts.length === 0 && !loading && (
                <Table.Row><Table.Cell colSpan={7}><Text color="gray">{t.empty}</Text></Table.Cell></Table.Row>
              )}
              {posts.map((post, index) => (
                <Table.Row
                  key={post._id}
                  ref={(element) => void (rowRefs.current[index] = element)}
                  tabIndex={index === (focused ?? 0) ? 0 : -1}
                  className="address-row"
                  data-focused={focused === index}
                  data-post={post.slug}
                  onFocus={() => setFocused(index)}
                  onKeyDown={(event) => onRowKey(event, index, post)}
                >
                  <Table.Cell>
                    <Text as="div" weight="medium">{post.title}</Text>
                    {post.excerpt !== "" && <Text as="div" size="1" color="gray" className="post-excerpt">{post.excerpt}</Text>}
                  </Table.Cell>
                  <Table.Cell><Badge color={statusColors[post.status]}>{post.status}</Badge></Table.Cell>
                  <Table.Cell>{post.categories.length === 0 ? <Text color="gray">{t.uncategorized}</Text> : post.categories.map(categoryName).join(", ")}</Table.Cell>
                  <Table.Cell>{post.author.username}</Table.Cell>
                  <Table.Cell>{publicationText(post)}</Table.Cell>
                  <Table.Cell>{post.views}</Table.Cell>
                  <Table.Cell>
                    <Flex gap="2">
                      <Button size="1" variant="soft" tabIndex={-1} onClick={() => edit(post)}>{t.edit}</Button>
                      <Button size="1" variant="soft" color="red" tabIndex={-1} onClick={() => setDeleting({ post, busy: false, error: null })}>{t.delete}</Button>
                    </Flex>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        )}
      <Text as="p" size="1" color="gray" mt="3">{t.keyboardHint}</Text>
      <AlertDialog.Root open={deleting !== null} onOpenChange={(open) => !open && deleting?.busy !== true && setDeleting(null)}>
        <AlertDialog.Content maxWidth="460px">
          <AlertDialog.Title>{t.deleteTitle}</AlertDialog.Title>
          <AlertDialog.Description>{t.confirmDelete}</AlertDialog.Description>
          {deleting !== null && <Text as="p" size="2" mt="2" weight="medium">{deleting.post.title}</Text>}
          {deleting?.error != null && (
            <Callout.Root color="red" role="alert" mt="3" size="1"><Callout.Text>{deleting.error}</Callout.Text></Callout.Root>
          )}
          <Flex gap="3" mt="4" justify="end">
            <AlertDialog.Cancel><Button variant="soft" color="gray" disabled={deleting?.busy === true}>{t.cancel}</Button></AlertDialog.Cancel>
            <Button color="red" disabled={deleting?.busy === true} onClick={() => void confirmDelete()}>
              {deleting?.busy === true ? t.deleting : t.delete}
            </Button>
          </Flex>
        </AlertDialog.Content>
      </AlertDialog.Root>
    </Screen>
  )
}
