import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { BlogCategory, BlogPost, BlogPostInput, PostStatus, Slug, TagList } from "./blog.ts"
import {
  BadRequest,
  Conflict,
  Forbidden,
  listQueryFields,
  NotFound,
  Ok,
  Pagination,
  RecordId,
  RequiredText,
  Unauthorized,
  Version,
  VersionParam
} from "./common.ts"
import { CsvExport } from "./lists.ts"

const onePost = Schema.Struct({ success: Schema.Literal(true), post: BlogPost })

/** The spec names the list's field `posts` at the top; the page sits beside it. */
export const PostPage = Schema.Struct({ success: Schema.Literal(true), posts: Schema.Array(BlogPost), pagination: Pagination })

/**
 * Reading posts: with a valid admin token every status, without one only published posts.
 * The CSV export is for staff only.
 */
export class BlogPublicApi extends HttpApiGroup.make("blog")
  .add(
    HttpApiEndpoint.get("posts", "/api/blog/posts", {
      query: { ...listQueryFields, status: Schema.optionalKey(PostStatus) },
      success: [PostPage, CsvExport],
      error: Unauthorized
    }),
    HttpApiEndpoint.get("post", "/api/blog/posts/:slug", {
      params: { slug: Slug },
      success: onePost,
      error: NotFound
    }),
    HttpApiEndpoint.get("categories", "/api/blog/categories", {
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Array(BlogCategory) })
    }),
    HttpApiEndpoint.get("tags", "/api/blog/tags", {
      success: Schema.Struct({ success: Schema.Literal(true), data: TagList })
    })
  )
  .annotate(OpenApi.Title, "Blog")
{}

export class BlogAdminApi extends HttpApiGroup.make("blogAdmin")
  .add(
    HttpApiEndpoint.post("create", "/api/blog/admin/posts", {
      payload: BlogPostInput,
      success: onePost,
      error: [BadRequest, Forbidden, Conflict]
    }),
    HttpApiEndpoint.put("update", "/api/blog/admin/posts/:slug", {
      params: { slug: Slug },
      payload: Schema.Struct({ ...BlogPostInput.fields, version: Version }),
      success: onePost,
      error: [BadRequest, Forbidden, Conflict, NotFound]
    }),
    HttpApiEndpoint.delete("remove", "/api/blog/admin/posts/:_id", {
      params: { _id: RecordId },
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }),
    HttpApiEndpoint.post("createCategory", "/api/blog/admin/categories", {
      payload: Schema.Struct({ name: RequiredText }),
      success: Schema.Struct({ success: Schema.Literal(true), data: BlogCategory }),
      error: [BadRequest, Forbidden]
    })
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Blog administration")
{}
