import { useCallback, useState } from "react"
import type { CsvFile } from "../../../contract/lists.ts"
import { failureOf } from "../../../contract/call-failure.ts"
import { useStableCallback } from "../use-stable.ts"

/** Saves a list's CSV export (asked of the server by the screen's API call) as the file the server named. */
export const saveCsv = (file: CsvFile): void => {
  const url = URL.createObjectURL(new Blob([file.text], { type: "text/csv" }))
  const link = document.createElement("a")
  link.href = url
  link.download = file.name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** The state of a screen's "Export CSV": busy while the file comes, the failure's message after. */
export const useCsvExport = (exportCsv: () => Promise<CsvFile>) => {
  const [state, setState] = useState<{ readonly busy: boolean; readonly error: string | null }>({ busy: false, error: null })
  const run = useStableCallback(() => {
    if (state.busy) return
    setState({ busy: true, error: null })
    exportCsv().then(
      (file) => {
        saveCsv(file)
        setState({ busy: false, error: null })
      },
      (error: unknown) => setState({ busy: false, error: failureOf(error).message })
    )
  })
  const dismiss = useCallback(() => setState({ busy: false, error: null }), [])
  return { ...state, run, dismiss }
}
