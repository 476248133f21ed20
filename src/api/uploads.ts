import { paths } from "virtual:answer-schemas"
import type { UploadedImage } from "../../contract/uploads.ts"
import { uploadMessages, type UploadType } from "../../contract/upload-rules.ts"
import type { CallFailure } from "../../contract/call-failure.ts"
import { sessionHeaders } from "./session.ts"

/**
 * Sends an image as multipart with real byte progress. Fetch cannot report upload progress,
 * so this one call uses XMLHttpRequest; it rejects with the same `CallFailure` as the rest.
 */
export const uploadImage = (file: Blob, type: UploadType, onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<UploadedImage> =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open("POST", paths.uploadImage)
    for (const [name, value] of Object.entries(sessionHeaders())) request.setRequestHeader(name, value)
    request.responseType = "json"
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total)
    }
    request.onload = () => {
      const body = request.response as { success?: boolean; url?: string; error?: string } | null
      if (request.status === 200 && body?.success === true && typeof body.url === "string") {
        resolve({ success: true, url: body.url })
      } else {
        const failure: CallFailure = {
          status: request.status,
          message: typeof body?.error === "string" ? body.error : uploadMessages.failed
        }
        reject(failure)
      }
    }
    const unsent = (message: string): CallFailure => ({ status: undefined, message })
    request.onerror = () => reject(unsent("Network error"))
    request.onabort = () => reject(unsent("Upload cancelled"))
    signal.addEventListener("abort", () => request.abort())
    const form = new FormData()
    form.set("image", file)
    form.set("type", type)
    request.send(form)
  })
