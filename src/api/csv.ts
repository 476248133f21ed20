import type { CsvFile } from "../../contract/lists.ts"
import { answerFailure, networkFailure, unexpectedAnswer } from "./failure.ts"
import { sessionHeaders, sessionToken, tokenRefused } from "./session.ts"

/** The file's name as the server's `content-disposition` gives it, else the list's own. */
const fileNameOf = (disposition: string | null, fallback: string) => /filename="([^"]+)"/.exec(disposition ?? "")?.[1] ?? fallback

/**
 * A list's CSV (docs/api.md, "CSV export"): the path of the list's page as the screen reads it
 * (./list-paths.ts), with `format=csv` and no page, so the file holds every record the screen's
 * search and filters match, and a list's query is mapped to the API in one place. A 401 ends
 * the session, as any other call's does (docs/security.md).
 */
export const getCsv = async (pagePath: string, fallbackName: string): Promise<CsvFile> => {
  const url = new URL(pagePath, location.origin)
  url.searchParams.delete("page")
  url.searchParams.set("format", "csv")
  const token = sessionToken()
  const response = await fetch(`${url.pathname}${url.search}`, { headers: { ...sessionHeaders(), accept: "text/csv" } }).catch((error: unknown) =>
    Promise.reject(networkFailure(error))
  )
  if (response.status === 401) tokenRefused(token)
  if (!response.ok) throw answerFailure(response.status, await response.json().catch(() => undefined))
  if (!(response.headers.get("content-type") ?? "").startsWith("text/csv")) throw unexpectedAnswer("JSON instead of CSV")
  return { text: await response.text(), name: fileNameOf(response.headers.get("content-disposition"), fallbackName) }
}
