import { describe, expect, it } from "vitest"
import { addressModalMachine } from "../../machines/address-modal.ts"
import { authMachine } from "../../machines/auth.ts"
import { blogEditorMachine } from "../../machines/blog-editor.ts"
import { confirmAgainMachine } from "../../machines/confirm-again.ts"
import { listMachine } from "../../machines/list.ts"
import { listingModerationMachine } from "../../machines/listing-moderation.ts"
import { inquiryMachine } from "../../machines/inquiry.ts"
import { historyMachine } from "../../machines/history.ts"
import { rowFocusMachine } from "../../machines/row-focus.ts"
import { scamReportMachine } from "../../machines/scam-report.ts"
import { syncMachine } from "../../machines/sync.ts"
import { uploadMachine } from "../../machines/upload.ts"
import { triageDeskMachine } from "../../machines/triage-desk.ts"
import {
  addressModalTable,
  authTable,
  blogEditorTable,
  confirmAgainTable,
  historyTable,
  inquiryTable,
  listingModerationTable,
  listTable,
  rowFocusTable,
  scamReportTable,
  syncTable,
  triageDeskTable,
  uploadTable
} from "../spec/machine-tables.ts"
import { transitionTable } from "../support/transitions.ts"

// Removing, adding or redirecting a transition (or dropping a named action such as forgetToken
// or reloadList) makes a machine differ from its table in tests/spec/machine-tables.ts.
describe("each machine declares exactly the transitions the spec gives it", () => {
  it.each([
    ["auth", authMachine, authTable],
    ["address modal", addressModalMachine, addressModalTable],
    ["image upload", uploadMachine, uploadTable],
    ["blog editor", blogEditorMachine, blogEditorTable],
    ["list", listMachine, listTable],
    ["row focus", rowFocusMachine, rowFocusTable],
    ["listing moderation", listingModerationMachine, listingModerationTable],
    ["scam-report triage", scamReportMachine, scamReportTable],
    ["inquiry", inquiryMachine, inquiryTable],
    ["record history", historyMachine, historyTable],
    ["sync", syncMachine, syncTable],
    ["confirm again", confirmAgainMachine, confirmAgainTable],
    ["triage desk", triageDeskMachine, triageDeskTable]
  ] as const)("%s", (_name, machine, table) => {
    expect(transitionTable(machine as never)).toEqual([...table].sort())
  })
})
