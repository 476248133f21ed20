import { forgetRecords } from "../../lib/store/browser-store.ts"
import { currentStore, holdStore, STORE_KEPT_KEY } from "../../lib/store/handle.ts"
import { keepWaitingCount } from "../../lib/store/waiting-count.ts"
import { closeOpening } from "./open-store.ts"

/**
 * The server ended the session (a 401, the stream refused, the check at load; not the person's own
 * sign-out, which deletes the store: ./ConsoleClient.tsx): the records it read leave IndexedDB at
 * once, whoever they were about, and the changes the person made wait for their next sign-in here,
 * counted for the sign-in screen (docs/security.md, "What stays in the browser"). This tab's stores
 * are closed first, so no write of theirs lands after.
 */
export const forgetSessionRecords = async (): Promise<void> => {
  currentStore()?.close()
  holdStore(undefined)
  await closeOpening()
  localStorage.removeItem(STORE_KEPT_KEY)
  keepWaitingCount(await forgetRecords())
}
