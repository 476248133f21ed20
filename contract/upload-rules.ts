/**
 * The upload rules both sides apply (spec sections 5 and 9), without the schema library, so
 * the console's screens and machines can use them without loading it.
 */

/** Where an upload belongs; it names the folder under `/uploads/`. */
export const uploadTypes = ["blog", "events", "listings"] as const
export type UploadType = (typeof uploadTypes)[number]

/** The spec's limit: 5 MB, checked in the console first and again on the server. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024

export const uploadMessages = {
  notAnImage: "Please select a valid image file",
  tooLarge: "File size must be less than 5MB",
  missingFile: "Choose an image to upload",
  badType: "type must be one of blog, events, listings",
  readOnly: "Your role can't upload images",
  busy: "The server is busy with other uploads. Try again in a few seconds.",
  failed: "Upload failed",
  unknown: "Unknown error"
} as const

/** The file types the console offers in its picker (the server checks the bytes regardless). */
export const acceptedImageTypes = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const
