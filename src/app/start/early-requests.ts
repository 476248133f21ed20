import { SESSION_CHECK_PATH } from "../../api/auth.ts"
import { prefetch } from "../../api/prefetch.ts"
import { addressFirstPage } from "../../features/addresses/first-page.ts"
import { blogFirstPage } from "../../features/blog/list-query.ts"
import { listingFirstPage } from "../../features/listings/first-page.ts"
import { contactFirstPage } from "../../features/contacts/first-page.ts"
import { inquiryFirstPage } from "../../features/advertising/first-page.ts"
import { reportFirstPage } from "../../features/scam-reports/first-page.ts"
import { adminFirstPage } from "../../features/admin-users/first-page.ts"

const firstPages = [addressFirstPage, blogFirstPage, listingFirstPage, contactFirstPage, inquiryFirstPage, reportFirstPage, adminFirstPage]

/**
 * The session check and the first page of the list at this address, asked for at once and in
 * parallel, before the screens' code has loaded; their answers are checked without effect
 * (src/api/checked-answer.ts). They halve the time to a signed-in first screen's rows
 * (docs/performance.md).
 */
export const askEarly = (pathname: string, search: string): void => {
  prefetch(SESSION_CHECK_PATH)
  for (const firstPage of firstPages) {
    const path = firstPage(pathname, search)
    if (path !== undefined) prefetch(path)
  }
}
