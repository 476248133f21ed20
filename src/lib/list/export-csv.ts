import { useState } from "react"
import { type CallFailure, failureOf } from "../../../machines/call-failure.ts"
import { AuthContext } from "../auth.tsx"

const fileNameOf = (disposition: string | null, fallback: string) =>
  disposition?.match(/filename="([^"]+)"/)?.[1] ?? fallback

/**
 * Downloads a list's CSV export: every row matching its filters, asked of the server with the
 * signed-in token in a header (never in the URL), then saved as the file the server names.
 */
export const downloadCsv = async (token: string, path: string, fallbackName: string): Promise<void> => {
  const response = await fetch(path, { headers: { authorization: `Bearer ${token}`, accept: "text/csv" } })
  if (!response.ok) {
    const body = await response.json().catch(() => null) as { error?: unknown } | null
    const failure: CallFailure = {
      status: response.status,
      message: typeof body?.error === "string" ? body.error : `HTTP ${response.status}: request failed`
    }
    throw failure
  }
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement("a")
  link.href = url
  link.download = fileNameOf(response.headers.get("content-disposition"), fallbackName)
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** The state of a screen's "Export CSV": busy while the file comes, the failure's message after. */
export const useCsvExport = (exportPath: () => string, fallbackName: string) => {
  const token = AuthContext.useSelector((snapshot) => snapshot.context.token) ?? ""
  const [state, setState] = useState<{ readonly busy: boolean; readonly error: string | null }>({ busy: false, error: null })
  const run = () => {
    if (state.busy) return
    setState({ busy: true, error: null })
    downloadCsv(token, exportPath(), fallbackName).then(
      () => setState({ busy: false, error: null }),
      (error: unknown) => setState({ busy: false, error: failureOf(error).message })
    )
  }
  return { ...state, run, dismiss: () => setState({ busy: false, error: null }) }
}
