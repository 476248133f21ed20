import { Schema } from "effect"
import { Multipart } from "effect/http"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./auth.ts"
import { BadRequest, Forbidden, PayloadTooLarge, UnsupportedMediaType } from "./common.ts"

/** Where an upload belongs; it names the folder under `/uploads/`. */
export const UploadType = Schema.Literals(["blog", "events", "listings"])
export type UploadType = typeof UploadType.Type

/** The spec's limit: 5 MB, checked in the console first and again on the server. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024

export const uploadMessages = {
  notAnImage: "Please select a valid image file",
  tooLarge: "File size must be less than 5MB",
  missingFile: "Choose an image to upload",
  badType: "type must be one of blog, events, listings",
  readOnly: "Your role can't upload images",
  failed: "Upload failed",
  unknown: "Unknown error"
} as const

/** The file types the console offers in its picker (the server checks the bytes regardless). */
export const acceptedImageTypes = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const

export const UploadedImage = Schema.Struct({ success: Schema.Literal(true), url: Schema.String })
export type UploadedImage = typeof UploadedImage.Type

export class UploadApi extends HttpApiGroup.make("upload")
  .add(
    HttpApiEndpoint.post("image", "/api/upload/image", {
      payload: Schema.Struct({ image: Multipart.SingleFileSchema, type: UploadType }).pipe(HttpApiSchema.asMultipart()),
      success: UploadedImage,
      error: [BadRequest, Forbidden, PayloadTooLarge, UnsupportedMediaType]
    }).annotate(
      OpenApi.Description,
      "Stores a JPEG, PNG, GIF or WebP image of at most 5 MB, checked by its bytes, renamed and without metadata. " +
        "The answer's url serves it from /uploads/{type}/."
    )
  )
  .middleware(Authorization)
  .annotate(OpenApi.Title, "Uploads")
{}
