import { DownloadIcon, ReloadIcon } from "@radix-ui/react-icons"
import { Button, Callout, Flex, Spinner, Text } from "@radix-ui/themes"
import type { ReactNode } from "react"
import type { Pagination } from "../../../contract/common.ts"
import { localTime } from "../../lib/dates.ts"
import { useOnline } from "../../lib/link.ts"
import { listTexts as t } from "./texts.ts"

/** "Previous · Page X of Y · Next", shown only when there is more than one page. */
export const Pager = ({ pagination, onPage }: { readonly pagination: Pagination | undefined; readonly onPage: (page: number) => void }) =>
  pagination === undefined || pagination.pages <= 1 ? null : (
    <Flex gap="3" align="center" justify="center" mt="3" asChild>
      <nav aria-label="Pages">
        <Button variant="soft" disabled={pagination.page <= 1} onClick={() => onPage(pagination.page - 1)}>
          {t.previous}
        </Button>
        <Text size="2">{t.page(pagination.page, pagination.pages)}</Text>
        <Button variant="soft" disabled={pagination.page >= pagination.pages} onClick={() => onPage(pagination.page + 1)}>
          {t.next}
        </Button>
      </nav>
    </Flex>
  )

/** A failed load or action, with what went wrong and, for a load, Retry. */
export const FailureCallout = ({ title, message, onRetry }: { readonly title: string; readonly message: string; readonly onRetry?: () => void }) => (
  <Callout.Root color="red" role="alert" mb="3">
    <Callout.Text>
      {title}: {message}{" "}
      {onRetry !== undefined && (
        <Button size="1" variant="soft" color="red" onClick={onRetry}>
          <ReloadIcon /> {t.retry}
        </Button>
      )}
    </Callout.Text>
  </Callout.Root>
)

export interface ListFrameProps {
  /** The state from `useList`. */
  readonly list: {
    readonly firstLoad: boolean
    readonly error: string | null
    readonly pagination: Pagination | undefined
    readonly reload: () => void
    /** The page shown: when the server answered it, if it says. */
    readonly page?: { readonly readAt?: number } | null
  }
  readonly loadingText: string
  readonly loadFailedText: string
  readonly onPage: (page: number) => void
  /** Why the last CSV export failed, if it did. */
  readonly exportError?: string | null
  /** The table or cards, once a first page has arrived (or failed). */
  readonly children: ReactNode
}

/**
 * A list's states around its rows: first loading, a failure with Retry (rows kept; a first load
 * that failed shows no table, so no "nothing found" that isn't true), the pager. With no link and
 * rows shown, the failed read is no failure of the person's: the list says once that it shows
 * what this browser keeps, and when the server sent it; the shell says the link is down.
 */
export const ListFrame = ({ list, loadingText, loadFailedText, onPage, exportError, children }: ListFrameProps) => {
  const online = useOnline()
  const keptShown = !online && list.error !== null && list.pagination !== undefined
  const readAt = list.page?.readAt
  return (
    <>
      {exportError != null && <FailureCallout title={t.exportFailed} message={exportError} />}
      {keptShown ? (
        <Text as="p" size="2" color="gray" role="status" mb="3">
          {t.keptOffline(readAt === undefined ? undefined : localTime(new Date(readAt).toISOString()))}
        </Text>
      ) : (
        list.error !== null && <FailureCallout title={loadFailedText} message={list.error} onRetry={list.reload} />
      )}
      {list.firstLoad ? (
        <Flex gap="2" align="center" role="status">
          <Spinner />
          <Text color="gray">{loadingText}</Text>
        </Flex>
      ) : list.pagination === undefined ? null : (
        children
      )}
      <Pager pagination={list.pagination} onPage={onPage} />
    </>
  )
}

/** "Export CSV": every row matching the list's filters, as a file. */
export const ExportCsvButton = ({ busy, onExport }: { readonly busy: boolean; readonly onExport: () => void }) => (
  <Button variant="soft" color="gray" disabled={busy} onClick={onExport}>
    <DownloadIcon /> {busy ? t.exporting : t.exportCsv}
  </Button>
)
