import type { UploadedImage } from "../../contract/upload.ts"
import { uploadMessages, type UploadType } from "../../contract/upload-rules.ts"
import type { CallFailure } from "../../machines/call-failure.ts"

/**
 * Sends an image as multipart with real byte progress. Fetch cannot report upload progress,
 * so this one call uses XMLHttpRequest; it rejects with the same `CallFailure` as the rest.
 */
export const uploadImage = (
  token: string,
  file: Blob,
  type: UploadType,
  onProgress: (loaded: number, total: number) => void,
  signal: AbortSignal
): Promise<UploadedImage> =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open("POST", "/api/upload/image")
    request.setRequestHeader("authorization", `Bearer ${token}`)
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
    request.onerror = () => reject({ status: undefined, message: "Network error" } satisfies CallFailure)
    request.onabort = () => reject({ status: undefined, message: "Upload cancelled" } satisfies CallFailure)
    signal.addEventListener("abort", () => request.abort())
    const form = new FormData()
    form.set("image", file)
    form.set("type", type)
    request.send(form)
  })
