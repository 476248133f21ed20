import { Effect } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import { dieOnSqlError } from "../platform/database.ts"
import { randomUUID } from "node:crypto"
import { blogMessages, cleanList, readingTime, slugify, uniqueSlug } from "../../contract/blog-rules.ts"
import type { BlogCategory, BlogPost, BlogPostInput, PostStatus } from "../../contract/blog.ts"
import { EXPORT_BATCH, keysetRows, pageWindow, paginate } from "../platform/lists.ts"
import type { Selection, VersionedTable } from "../platform/record-writes.ts"
import { containsPattern } from "../platform/search.ts"
import { sanitizePostHtml } from "./sanitize.ts"

export interface PostRow {
  readonly id: string
  readonly slug: string
  readonly title: string
  readonly excerpt: string
  readonly content: string
  readonly featuredImage: string
  readonly categories: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly status: PostStatus
  readonly publishedAt: Date | null
  readonly scheduledAt: Date | null
  readonly seoTitle: string
  readonly seoDescription: string
  readonly seoKeywords: ReadonlyArray<string>
  readonly isSponsored: boolean
  readonly isFeatured: boolean
  readonly isEditorsChoice: boolean
  readonly isTrending: boolean
  readonly isResearch: boolean
  readonly isReview: boolean
  readonly sponsorInfo: BlogPost["sponsorInfo"]
  readonly views: number
  readonly readingTime: number
  readonly author: BlogPost["author"]
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly version: number
}

export const toPost = ({ id, publishedAt, scheduledAt, createdAt, updatedAt, ...row }: PostRow): BlogPost => ({
  ...row,
  _id: id,
  publishedAt: publishedAt?.toISOString() ?? null,
  scheduledAt: scheduledAt?.toISOString() ?? null,
  createdAt: createdAt.toISOString(),
  updatedAt: updatedAt.toISOString()
})

/**
 * The stored form of what the editor sent, with the spec's rules applied. `stored` is the post
 * as it was (null for a new one): a post that stays published keeps its date, and a post saved
 * without an author keeps its author, or gets `defaultAuthor` when new.
 */
export const toColumns = (
  input: BlogPostInput,
  stored: { readonly publishedAt: Date | null; readonly author: BlogPost["author"] } | null,
  defaultAuthor: string
) => {
  const content = sanitizePostHtml(input.content)
  return {
    title: input.title.trim(),
    excerpt: input.excerpt?.trim() ?? "",
    content,
    featuredImage: input.featuredImage?.trim() ?? "",
    categories: [...cleanList(input.categories ?? [])],
    tags: [...cleanList(input.tags ?? [])],
    status: input.status,
    publishedAt: input.status === "published" ? (stored?.publishedAt ?? new Date()) : null,
    scheduledAt: input.status === "scheduled" && input.scheduledAt != null ? new Date(input.scheduledAt) : null,
    seoTitle: input.seoTitle?.trim() ?? "",
    seoDescription: input.seoDescription?.trim() ?? "",
    seoKeywords: [...cleanList(input.seoKeywords ?? [])],
    isSponsored: input.isSponsored ?? false,
    isFeatured: input.isFeatured ?? false,
    isEditorsChoice: input.isEditorsChoice ?? false,
    isTrending: input.isTrending ?? false,
    isResearch: input.isResearch ?? false,
    isReview: input.isReview ?? false,
    sponsorInfo: input.sponsorInfo == null ? null : JSON.stringify(input.sponsorInfo),
    // Counted on what is stored and shown, not on what was sent.
    readingTime: readingTime(content),
    author: JSON.stringify(authorOf(input.author, stored?.author, defaultAuthor))
  }
}

/**
 * Who the post is by: as sent, an empty username being the saving admin's own name (the
 * editor's hint), the credentials kept whatever the username; nothing sent keeps the stored
 * author, or gives a new post the admin's name. An avatar not sent is kept (the editor does not
 * show it), and an empty avatar or credentials is none: the same author is stored the same way
 * whichever form sent it, so a save that left it as it was changes nothing (docs/api.md,
 * "Record history").
 */
const authorOf = (sent: BlogPostInput["author"], stored: BlogPost["author"] | undefined, defaultAuthor: string): BlogPost["author"] => {
  if (sent === undefined) return stored ?? { username: defaultAuthor }
  const credentials = sent.credentials?.trim() ?? ""
  const avatar = (sent.avatar ?? stored?.avatar ?? "").trim()
  return {
    username: sent.username.trim() === "" ? defaultAuthor : sent.username.trim(),
    ...(avatar === "" ? {} : { avatar }),
    ...(credentials === "" ? {} : { credentials })
  }
}

/** Who a post is by when the editor names no one: the admin's display name, never their sign-in e-mail. */
export const defaultAuthorOf = (admin: { readonly name: string | null }) => admin.name ?? "Editorial team"

/** The columns a post is read with (the write path answers with them too). */
export const postColumns =
  "id, slug, title, excerpt, content, featured_image, categories, tags, status, published_at, scheduled_at, " +
  "seo_title, seo_description, seo_keywords, is_sponsored, is_featured, is_editors_choice, is_trending, is_research, " +
  "is_review, sponsor_info, views, reading_time, author, created_at, updated_at, version"

/** Posts as the write path (server/platform/record-writes.ts) changes them. */
export const postTable: VersionedTable = {
  table: "blog_posts",
  columns: postColumns,
  messages: { notFound: blogMessages.notFound, stale: blogMessages.stale },
  // The view counter is the readers', not the post's content.
  history: { json: ["sponsorInfo", "author"], leaveOut: ["views"] }
}

/** Scheduled posts whose time has come, the longest due first, 100 at a time (scheduler.ts). */
export const duePosts: Selection = (sql) => sql`status = 'scheduled' AND scheduled_at <= now() ORDER BY scheduled_at, id LIMIT 100`

/** A due post goes out dated when it was due, not when the job ran. */
export const publishedAsScheduled = (sql: SqlClient) => sql`status = 'published', published_at = scheduled_at, scheduled_at = NULL`

export interface PostQuery {
  readonly onlyPublished: boolean
  readonly status?: PostStatus | undefined
  readonly search?: string | undefined
  readonly page?: number | undefined
  readonly limit?: number | undefined
}

/** The list's order: newest first by the date a reader sees. */
const postDate = "coalesce(published_at, scheduled_at, created_at)"

/** Status and search (title, excerpt or a tag contains the text) as one condition. */
const postFilter = (sql: SqlClient, options: PostQuery) => {
  const status = options.onlyPublished ? "published" : options.status
  const search = options.search?.trim() ?? ""
  const pattern = containsPattern(search)
  return sql`${status === undefined ? sql`true` : sql`status = ${status}`}
    AND ${
      search === ""
        ? sql`true`
        : sql`(lower(title) LIKE ${pattern} OR lower(excerpt) LIKE ${pattern}
      OR EXISTS (SELECT 1 FROM unnest(tags) AS tag WHERE lower(tag) LIKE ${pattern}))`
    }`
}

/** One page of posts, newest first; `onlyPublished` for readers without an admin token. */
export const listPosts = (options: PostQuery) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const { page, limit, offset } = pageWindow(options)
    const where = postFilter(sql, options)
    const rows = yield* sql<PostRow & { readonly total: number }>`
      SELECT ${sql.unsafe(postColumns)}, count(*) OVER ()::int AS total FROM blog_posts WHERE ${where}
      ORDER BY ${sql.unsafe(postDate)} DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
    // Past the last page no row carries the total: count it alone.
    const total = rows[0]?.total ?? (yield* sql<{ total: number }>`SELECT count(*)::int AS total FROM blog_posts WHERE ${where}`)[0]?.total ?? 0
    return { posts: rows.map(({ total: _, ...row }) => toPost(row)), pagination: paginate(page, limit, total) }
  }).pipe(dieOnSqlError)

/** Every post the list's filters match, in its order, batch after batch (keyset on date and id). */
export const exportPosts = (options: PostQuery) => {
  type Keyed = PostRow & { readonly sortKey: string }
  return keysetRows((after: Keyed | undefined) =>
    Effect.gen(function* () {
      const sql = yield* SqlClient
      const onward = after === undefined ? sql`true` : sql`(${sql.unsafe(postDate)}, id) < (CAST(${after.sortKey} AS timestamptz), ${after.id}::uuid)`
      return yield* sql<Keyed>`
        SELECT ${sql.unsafe(postColumns)}, ${sql.unsafe(postDate)}::text AS sort_key FROM blog_posts
        WHERE ${postFilter(sql, options)} AND ${onward}
        ORDER BY ${sql.unsafe(postDate)} DESC, id DESC LIMIT ${EXPORT_BATCH}`
    })
  )
}

export const findPostBySlug = (slug: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<PostRow>`SELECT ${sql.unsafe(postColumns)} FROM blog_posts WHERE slug = ${slug}`
    return rows[0]
  }).pipe(dieOnSqlError)

/** The title's slug, made unique with -2, -3… against the slugs already stored. */
export const freeSlug = (title: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const base = slugify(title)
    const rows = yield* sql<{ slug: string }>`
      SELECT slug FROM blog_posts WHERE slug = ${base} OR slug LIKE ${`${base}-%`}`
    return uniqueSlug(base, new Set(rows.map((row) => row.slug)))
  }).pipe(dieOnSqlError)

export const listCategories = Effect.gen(function* () {
  const sql = yield* SqlClient
  const rows = yield* sql<{ id: string; slug: string; name: string }>`SELECT id, slug, name FROM blog_categories ORDER BY lower(name)`
  return rows.map(({ id, ...rest }): BlogCategory => ({ _id: id, ...rest }))
}).pipe(dieOnSqlError)

/** A category from its name; an existing one with the same slug is returned as it is. */
export const ensureCategory = (name: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const slug = slugify(name)
    yield* sql`INSERT INTO blog_categories (id, slug, name) VALUES (${randomUUID()}, ${slug}, ${name.trim()})
      ON CONFLICT (slug) DO NOTHING`
    const rows = yield* sql<{ id: string; slug: string; name: string }>`SELECT id, slug, name FROM blog_categories WHERE slug = ${slug}`
    const row = rows[0] as { id: string; slug: string; name: string }
    return { _id: row.id, slug: row.slug, name: row.name } satisfies BlogCategory
  }).pipe(dieOnSqlError)

export const listTags = (onlyPublished: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient
    const rows = yield* sql<{ tag: string }>`
      SELECT DISTINCT unnest(tags) AS tag FROM blog_posts WHERE ${onlyPublished ? sql`status = 'published'` : sql`true`} ORDER BY 1`
    return rows.map((row) => row.tag)
  }).pipe(dieOnSqlError)
