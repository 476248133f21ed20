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
import { PublicRead } from "./public-reads.ts"

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
      // The CSV export needs a staff token; the public pages a list's newest 1,000 posts.
      error: [Unauthorized, BadRequest]
    }).annotate(OpenApi.Summary, "List posts (published only without a token), or export them as CSV"),
    HttpApiEndpoint.get("post", "/api/blog/posts/:slug", {
      params: { slug: Slug },
      success: onePost,
      error: NotFound
    }).annotate(OpenApi.Summary, "Read one post by its slug"),
    HttpApiEndpoint.get("categories", "/api/blog/categories", {
      success: Schema.Struct({ success: Schema.Literal(true), data: Schema.Array(BlogCategory) })
    }).annotate(OpenApi.Summary, "List categories"),
    HttpApiEndpoint.get("tags", "/api/blog/tags", {
      success: Schema.Struct({ success: Schema.Literal(true), data: TagList })
    }).annotate(OpenApi.Summary, "List tags (of published posts only without a token)")
  )
  .middleware(PublicRead)
  .annotate(OpenApi.Title, "Blog")
  .annotate(OpenApi.Description, "Reading posts, categories and tags; published ones only without a token.") {}

export class BlogAdminApi extends HttpApiGroup.make("blogAdmin")
  .add(
    HttpApiEndpoint.post("create", "/api/blog/admin/posts", {
      payload: BlogPostInput,
      success: onePost,
      error: [BadRequest, Forbidden, Conflict]
    }).annotate(OpenApi.Summary, "Create a post"),
    // The spec updates a post by its slug and deletes it by its id; one parameter name keeps
    // the two a single path in the OpenAPI document.
    HttpApiEndpoint.put("update", "/api/blog/admin/posts/:post", {
      params: { post: Slug.annotate({ description: "The post's slug" }) },
      payload: Schema.Struct({ ...BlogPostInput.fields, version: Version }),
      success: onePost,
      error: [BadRequest, Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Update a post, naming the version it was read at"),
    HttpApiEndpoint.delete("remove", "/api/blog/admin/posts/:post", {
      params: { post: RecordId.annotate({ description: "The post's id" }) },
      query: { version: VersionParam },
      success: Ok,
      error: [Forbidden, Conflict, NotFound]
    }).annotate(OpenApi.Summary, "Delete a post, naming the version it was read at"),
    HttpApiEndpoint.post("createCategory", "/api/blog/admin/categories", {
      payload: Schema.Struct({ name: RequiredText }),
      success: Schema.Struct({ success: Schema.Literal(true), data: BlogCategory }),
      error: [BadRequest, Forbidden]
    }).annotate(OpenApi.Summary, "Create a category, or return the one with the same slug")
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Blog administration")
  .annotate(OpenApi.Description, "Writing, editing and deleting posts and categories.") {}
