import { describe, expect, it } from "vitest"
import { addressModalMachine } from "../../machines/address-modal.ts"
import { authMachine } from "../../machines/auth.ts"
import { blogEditorMachine } from "../../machines/blog-editor.ts"
import { uploadMachine } from "../../machines/upload.ts"
import { transitionTable } from "../support/transitions.ts"

/**
 * Each machine's transitions, written from docs/product-spec.md §4 "States and transitions" and
 * §2 (the screens), with docs/decisions.md's additions; the machine's declared transitions must
 * equal the table, so removing, adding or redirecting one (or dropping a named action such as
 * forgetToken or reloadList) fails here. The list machine's table is in list-machine.test.ts.
 */

/**
 * §4 "Auth": unauthenticated → OTP sent (after a successful request) → authenticated (after a
 * successful verification; the token stored). On start a stored token is checked; on failure it
 * is removed and the user is signed out. Logout clears the token. §2 "Sign-in screen": "Use
 * different email" goes back to step 1; a wrong code keeps step 2. Decisions: a request the
 * server refuses as expired (401 on any call) signs out too; logout tells the server.
 */
const auth = [
  "starting --(always) [hasStoredToken]--> checking",
  "starting --(always)--> unauthenticated",
  "checking --xstate.done.actor.checkSession--> authenticated",
  "checking --xstate.error.actor.checkSession--> unauthenticated / forgetToken",
  "unauthenticated --SEND_OTP--> sendingOtp",
  "sendingOtp --xstate.done.actor.requestOtp--> otpSent",
  "sendingOtp --xstate.error.actor.requestOtp--> unauthenticated",
  "otpSent --VERIFY--> verifying",
  "otpSent --USE_DIFFERENT_EMAIL--> unauthenticated",
  "verifying --xstate.done.actor.verifyOtp--> authenticated / storeToken",
  "verifying --xstate.error.actor.verifyOtp--> otpSent",
  "authenticated --LOGOUT--> signingOut / forgetToken",
  "authenticated --SESSION_EXPIRED--> unauthenticated / forgetToken",
  "signingOut --xstate.done.actor.endSession--> unauthenticated",
  "signingOut --xstate.error.actor.endSession--> unauthenticated"
]

/**
 * §4 "Address modal": modes view, edit and delete; Add opens edit mode with an empty form; after
 * a successful save or delete the list reloads and the modal closes. §2: View, Edit and Delete on
 * each row; the view offers Edit; Save only with identifier and name; a failed save or delete
 * keeps the modal open with the error.
 */
const addressModal = [
  "closed --OPEN_ADD--> editing",
  "closed --OPEN_VIEW--> viewing / open",
  "closed --OPEN_EDIT--> editing / open",
  "closed --OPEN_DELETE--> confirmingDelete / open",
  "viewing --EDIT--> editing",
  "viewing --CLOSE--> closed",
  "editing --CHANGE--> (stays)",
  "editing --SAVE [canSave]--> saving",
  "editing --CLOSE--> closed",
  "saving --xstate.done.actor.save--> closed / reloadList",
  "saving --xstate.error.actor.save--> editing",
  "confirmingDelete --CONFIRM_DELETE--> deleting",
  "confirmingDelete --CLOSE--> closed",
  "deleting --xstate.done.actor.remove--> closed / reloadList",
  "deleting --xstate.error.actor.remove--> confirmingDelete"
]

/**
 * §4 "Image upload" and §5 "Image upload": only images, at most 5 MB, each refused with its
 * message before anything is sent; progress up to 90 %, 100 % on completion. Decisions: an
 * upload can be cancelled; a new pick replaces a finished or failed one; Remove resets.
 */
const upload = [
  "idle --PICK--> validating / pick",
  "validating --(always) [notAnImage]--> failed",
  "validating --(always) [tooLarge]--> failed",
  "validating --(always)--> uploading",
  "uploading --PROGRESS--> (stays)",
  "uploading --CANCEL--> idle",
  "uploading --xstate.done.actor.upload--> done",
  "uploading --xstate.error.actor.upload--> failed",
  "done --PICK--> validating / pick",
  "done --RESET--> idle",
  "failed --PICK--> validating / pick",
  "failed --RESET--> idle"
]

/**
 * §2 "Blog editor" and §4 "Editor save" / "Blog status": tabs; Save checks title and content
 * (and a scheduled post's date) first, showing the errors, else saves, creating or updating;
 * Publish is a save as published, checked the same way; a failed save keeps the editor with the
 * error, dismissable. Decisions: typing and switching tabs go on while a save runs; leaving with
 * unsaved changes asks first.
 */
const blogEditor = [
  "editing --CHANGE--> (stays) / change",
  "editing --SET_TAB--> (stays) / setTab",
  "editing --DISMISS_ERROR--> (stays)",
  "editing --SAVE [invalid]--> (stays) / showErrors",
  "editing --SAVE--> saving",
  "editing --PUBLISH--> validatingPublish",
  "editing --LEAVE [dirty]--> confirmingLeave",
  "editing --LEAVE--> left",
  "validatingPublish --(always) [invalid]--> editing / showErrors",
  "validatingPublish --(always)--> saving",
  "saving --CHANGE--> (stays) / change",
  "saving --SET_TAB--> (stays) / setTab",
  "saving --xstate.done.actor.save--> editing",
  "saving --xstate.error.actor.save--> editing",
  "confirmingLeave --STAY--> editing",
  "confirmingLeave --CONFIRM_LEAVE--> left"
]

describe("each machine declares exactly the transitions the spec gives it", () => {
  it.each([
    ["auth", authMachine, auth],
    ["address modal", addressModalMachine, addressModal],
    ["image upload", uploadMachine, upload],
    ["blog editor", blogEditorMachine, blogEditor]
  ] as const)("%s", (_name, machine, table) => {
    expect(transitionTable(machine as never)).toEqual([...table].sort())
  })
})
