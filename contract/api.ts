import { HttpApi, HttpApiMiddleware, OpenApi } from "effect/http-api"
import packageJson from "../package.json" with { type: "json" }
import { AddressSearchApi, CexAddressesApi, CoreTeamAddressesApi, GeneratedAddressesApi } from "./addresses.ts"
import { AuthApi } from "./auth.ts"
import { BlogAdminApi, BlogPublicApi } from "./blog-api.ts"
import { BadRequest } from "./common.ts"
import { SystemApi } from "./system.ts"
import { UploadApi } from "./upload.ts"

/**
 * Turns a request that fails its schema into the spec's `{ success: false, error }` answer
 * with status 400 and a message naming the field.
 */
export class RequestValidation extends HttpApiMiddleware.Service<RequestValidation>()("admin/RequestValidation", {
  error: BadRequest
}) {}

export class AdminApi extends HttpApi.make("admin-console")
  .add(SystemApi)
  .add(AuthApi)
  .add(GeneratedAddressesApi)
  .add(CexAddressesApi)
  .add(CoreTeamAddressesApi)
  .add(AddressSearchApi)
  .add(BlogPublicApi)
  .add(BlogAdminApi)
  .add(UploadApi)
  .middleware(RequestValidation)
  .annotate(OpenApi.Title, "Admin console API")
  .annotate(OpenApi.Version, packageJson.version)
  .annotate(HttpApi.ParseOptions, { errors: "all", onExcessProperty: "ignore" })
{}
