import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "../../contract/api.ts"
import { BlogPost, type BlogPostInput } from "../../contract/blog.ts"
import { blogMessages, textOf } from "../../contract/blog-rules.ts"
import { BadRequest, NotFound, Unauthorized } from "../../contract/common.ts"
import { Reader } from "../../contract/public-reads.ts"
import { requireEditor } from "../auth/roles.ts"
import { createRecord, removeRecord, updateRecord } from "../platform/record-writes.ts"
import { encodableAs } from "../platform/encodable.ts"
import { csvResponse, publicListPage, wantsCsv } from "../platform/lists.ts"
import {
  defaultAuthorOf,
  ensureCategory,
  exportPosts,
  findPostBySlug,
  freeSlug,
  listCategories,
  listPosts,
  listTags,
  postTable,
  type PostRow,
  toColumns,
  toPost
} from "./repository.ts"

const editor = requireEditor(blogMessages.readOnly)
const answerable = encodableAs(BlogPost)

/**
 * The spec's checks, in its words, before anything is written. Content is checked as it will be
 * stored (`storedContent`, from `toColumns`): a body that the sanitizer empties (only a script or
 * a style) has no content.
 */
const checkInput = (input: BlogPostInput, storedContent: string) => {
  if (input.title.trim() === "") return Effect.fail(new BadRequest({ error: blogMessages.titleRequired }))
  if (textOf(storedContent).trim() === "") return Effect.fail(new BadRequest({ error: blogMessages.contentRequired }))
  if (input.status === "scheduled" && input.scheduledAt == null) return Effect.fail(new BadRequest({ error: blogMessages.scheduleRequired }))
  return Effect.void
}

/** The CSV export's columns, named as the API names the fields. */
const postExportFields = [
  "_id",
  "slug",
  "title",
  "status",
  "excerpt",
  "categories",
  "tags",
  "publishedAt",
  "scheduledAt",
  "views",
  "readingTime",
  "isSponsored",
  "isFeatured",
  "seoTitle",
  "seoDescription",
  "createdAt",
  "updatedAt"
] as const

export const BlogPublicHandlers = HttpApiBuilder.group(AdminApi, "blog", (handlers) =>
  handlers
    .handle("posts", ({ query }) =>
      Effect.gen(function* () {
        const { session } = yield* Reader
        const options = { onlyPublished: session === undefined, ...query }
        if (yield* wantsCsv(query.format)) {
          if (session === undefined) return yield* new Unauthorized({ error: blogMessages.exportNeedsSignIn })
          return yield* csvResponse({ name: "blog-posts", fields: postExportFields, record: toPost, rows: exportPosts(options) })
        }
        const { posts, pagination } = yield* publicListPage(query, listPosts(options))
        return { success: true as const, posts, pagination }
      })
    )
    .handle("post", ({ params }) =>
      Effect.gen(function* () {
        const { session } = yield* Reader
        const row = yield* findPostBySlug(params.slug)
        if (row === undefined || (session === undefined && row.status !== "published")) {
          return yield* new NotFound({ error: blogMessages.notFound })
        }
        return { success: true as const, post: toPost(row) }
      })
    )
    .handle("categories", () => Effect.map(listCategories, (data) => ({ success: true as const, data })))
    .handle("tags", () =>
      Effect.gen(function* () {
        // Readers see the tags of published posts only; a draft's tags are not news yet.
        const { session } = yield* Reader
        return { success: true as const, data: yield* listTags(session === undefined) }
      })
    )
)

/** Posts on the one write path (server/platform/record-writes.ts). */
export const BlogAdminHandlers = HttpApiBuilder.group(AdminApi, "blogAdmin", (handlers) =>
  handlers
    .handle("create", ({ payload }) =>
      Effect.gen(function* () {
        const session = yield* editor
        const values = toColumns(payload, null, defaultAuthorOf(session.user))
        yield* checkInput(payload, values.content)
        const slug = yield* freeSlug(payload.title)
        const { row } = yield* createRecord<PostRow>(postTable, {
          values: { id: randomUUID(), slug, ...values },
          check: (created) => answerable(toPost(created)),
          events: (created) => ({ action: "blog.create", entityId: created.id, fromState: null, toState: created.status })
        })
        return { success: true as const, post: toPost(row) }
      })
    )
    .handle("update", ({ params, payload }) =>
      Effect.gen(function* () {
        const session = yield* editor
        const found = yield* findPostBySlug(params.post)
        if (found === undefined) return yield* new NotFound({ error: blogMessages.notFound })
        const valuesFrom = (before: PostRow) => toColumns(payload, before, defaultAuthorOf(session.user))
        const { after } = yield* updateRecord<PostRow, BadRequest>(postTable, {
          id: found.id,
          expectedVersion: payload.version,
          refuse: (before) => checkInput(payload, valuesFrom(before).content),
          changes: valuesFrom,
          check: (changed) => answerable(toPost(changed)),
          events: (before, changed) => ({ action: "blog.update", entityId: changed.id, fromState: before.status, toState: changed.status })
        })
        return { success: true as const, post: toPost(after) }
      })
    )
    .handle("remove", ({ params, query }) =>
      Effect.gen(function* () {
        yield* editor
        yield* removeRecord<PostRow>(postTable, {
          id: params.post,
          expectedVersion: query.version,
          events: (before) => ({ action: "blog.delete", entityId: before.id, fromState: before.status, toState: null })
        })
        return { success: true as const }
      })
    )
    .handle("createCategory", ({ payload }) =>
      Effect.gen(function* () {
        yield* editor
        const data = yield* ensureCategory(payload.name)
        return { success: true as const, data }
      })
    )
)
