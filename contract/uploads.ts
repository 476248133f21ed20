import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { BadRequest, Forbidden, PayloadTooLarge, ServiceBusy, UnsupportedMediaType } from "./common.ts"
import { uploadTypes } from "./upload-rules.ts"

/** Where an upload belongs; it names the folder under `/uploads/`. */
export const UploadType = Schema.Literals(uploadTypes)

export const UploadedImage = Schema.Struct({ success: Schema.Literal(true), url: Schema.String })
export type UploadedImage = typeof UploadedImage.Type

export class UploadsApi extends HttpApiGroup.make("uploads")
  .add(
    HttpApiEndpoint.post("image", "/api/upload/image", {
      payload: Schema.Struct({ image: Multipart.SingleFileSchema, type: UploadType }).pipe(HttpApiSchema.asMultipart()),
      success: UploadedImage,
      error: [BadRequest, Forbidden, PayloadTooLarge, UnsupportedMediaType, ServiceBusy]
    })
      .annotate(OpenApi.Summary, "Upload an image")
      .annotate(
        OpenApi.Description,
        "Stores a JPEG, PNG, GIF or WebP image of at most 5 MB, checked by its bytes, renamed and without metadata. " +
          "The answer's url serves it from /uploads/{type}/."
      )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Uploads")
  .annotate(OpenApi.Description, "Image uploads for posts and listings.") {}
