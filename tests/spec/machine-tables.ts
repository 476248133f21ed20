/**
 * Each machine's transitions, written from docs/product-spec.md §4 "States and transitions" and
 * §2 (the screens), with docs/decisions.md's additions, one line per transition:
 * `state --EVENT [guard]--> target (reenter) / named actions`. The unit tests require each
 * machine to declare exactly these (tests/unit/machine-tables.test.ts); the e2e model tests
 * count their coverage against them (tests/e2e/machine-*.test.ts). Written out here, never
 * derived from the machines.
 */

/**
 * §4 "Auth": unauthenticated → OTP sent (after a successful request) → authenticated (after a
 * successful verification; the token stored). On start a stored token is checked; on failure it
 * is removed and the user is signed out. Logout clears the token. §2 "Sign-in screen": "Use
 * different email" goes back to step 1; a wrong code keeps step 2. Decisions: a request the
 * server refuses as expired (401 on any call) signs out too; logout tells the server. Ours
 * (docs/architecture.md, "First screen"): when start-up's own check of the stored token has
 * already answered by the time the console starts, the console starts signed in, with no
 * second check and no spinner. Ours (docs/console.md, "Sign-in, in numbers"): the code step offers "Send a new code" once the minute
 * between codes is over; whatever its answer, the code step stays and says it. Ours (docs/console.md,
 * "Offline"; docs/decisions.md, "Signed in with no link"): the browser keeps who the token is
 * for with the token (on entering `confirmed`, not a transition's action); a check the server
 * could not answer (no answer, 502, 503, 504) leaves the person this browser remembers signed
 * in, unconfirmed, asked again when the link is back or ten seconds later; only the server's
 * refusal signs out and forgets. Ours (a reload's rows ≤ 100 ms at every round trip;
 * docs/decisions.md, "A reload opens at once"): a stored token whose person this browser remembers
 * opens signed in as them at once, the check answering behind the screens (`confirming`): its
 * refusal signs out, no answer leaves them unconfirmed; a stored token with nobody remembered is
 * checked behind the spinner, and any failure of that check signs out. Ours (docs/console.md,
 * "Passkeys"): from the e-mail step, "Sign in with a passkey" signs in in one step with the
 * passkey the device offers; a refusal or no answer comes back to the e-mail step and says which.
 * Ours (docs/console.md, "Offline"): the e-mail step shows as soon as a person signs out, before
 * the server has answered the logout, and a sign-in started there goes on (the sign-out is kept
 * until the server hears it).
 */
export const authTable = [
  "starting --(always) [isChecked]--> authenticated",
  "starting --(always) [remembersPerson]--> authenticated.confirming",
  "starting --(always) [hasStoredToken]--> checking",
  "starting --(always)--> unauthenticated",
  "checking --xstate.done.actor.checkSession--> authenticated",
  "checking --xstate.error.actor.checkSession--> unauthenticated / forgetSession",
  "unauthenticated --SEND_OTP--> sendingOtp",
  "unauthenticated --SIGN_IN_WITH_PASSKEY--> signingInWithPasskey",
  "signingInWithPasskey --xstate.done.actor.passkeySignIn--> authenticated",
  "signingInWithPasskey --xstate.error.actor.passkeySignIn--> unauthenticated",
  "sendingOtp --xstate.done.actor.requestOtp [codeAsked]--> otpSent",
  "sendingOtp --xstate.done.actor.requestOtp--> unauthenticated",
  "sendingOtp --xstate.error.actor.requestOtp--> unauthenticated",
  "otpSent --VERIFY--> verifying",
  "otpSent --USE_DIFFERENT_EMAIL--> unauthenticated",
  "otpSent --RESEND--> resendingOtp",
  "resendingOtp --xstate.done.actor.requestOtp [codeAsked]--> otpSent",
  "resendingOtp --xstate.done.actor.requestOtp--> otpSent",
  "resendingOtp --xstate.error.actor.requestOtp--> otpSent",
  "verifying --xstate.done.actor.verifyOtp [secondStepAsked]--> secondStep",
  "verifying --xstate.done.actor.verifyOtp [passkeyDue]--> passkeyRequired",
  "verifying --xstate.done.actor.verifyOtp--> authenticated",
  "verifying --xstate.error.actor.verifyOtp--> otpSent",
  "secondStep --USE_DIFFERENT_EMAIL--> unauthenticated",
  "secondStep.choosing --USE_PASSKEY--> secondStep.asserting",
  "secondStep.choosing --USE_RECOVERY_CODE--> secondStep.recovering",
  "secondStep.asserting --xstate.done.actor.stepWithPasskey--> authenticated",
  "secondStep.asserting --xstate.error.actor.stepWithPasskey--> secondStep.choosing",
  "secondStep.recovering --xstate.done.actor.stepWithRecoveryCode--> authenticated",
  "secondStep.recovering --xstate.error.actor.stepWithRecoveryCode--> secondStep.choosing",
  "passkeyRequired --SKIP--> authenticated",
  "passkeyRequired --LOGOUT--> signingOut / forgetSession",
  "passkeyRequired.offered --ADD_PASSKEY--> passkeyRequired.adding",
  "passkeyRequired.adding --xstate.done.actor.addPasskey--> authenticated",
  "passkeyRequired.adding --xstate.error.actor.addPasskey--> passkeyRequired.offered",
  "authenticated --LOGOUT--> signingOut / forgetSession",
  "authenticated --SESSION_EXPIRED--> unauthenticated / forgetSession",
  "authenticated.unconfirmed --LINK_BACK--> authenticated.confirming",
  "authenticated.unconfirmed --xstate.after.10000.auth.authenticated.unconfirmed--> authenticated.confirming",
  "authenticated.confirming --xstate.done.actor.checkSession--> authenticated.confirmed",
  "authenticated.confirming --xstate.error.actor.checkSession [canWaitForLink]--> authenticated.unconfirmed",
  "authenticated.confirming --xstate.error.actor.checkSession--> unauthenticated / forgetSession",
  "signingOut --xstate.done.actor.endSession--> unauthenticated",
  "signingOut --xstate.error.actor.endSession--> unauthenticated",
  "signingOut --SEND_OTP--> unauthenticated / signInAfterSignOut",
  "signingOut --SIGN_IN_WITH_PASSKEY--> unauthenticated / signInAfterSignOut"
]

/**
 * §4 "Address modal": modes view, edit and delete; Add opens edit mode with an empty form; after
 * a successful save or delete the list reloads and the modal closes. §2: View, Edit and Delete on
 * each row; the view offers Edit; Save only with identifier and name; a failed save or delete
 * keeps the modal open with the error. Ours (docs/console.md, "Open records"): an open record
 * follows a colleague's change (a newer version of the same address only).
 */
export const addressModalTable = [
  "closed --OPEN_ADD--> editing",
  "closed --OPEN_VIEW--> viewing / open",
  "closed --OPEN_EDIT--> editing / open",
  "closed --OPEN_DELETE--> confirmingDelete / open",
  "viewing --EDIT--> editing",
  "viewing --CLOSE--> closed",
  "viewing --REFRESH [isNewer]--> (stays) / refresh",
  "editing --SAVE [canSave]--> saving / keepDraft",
  "editing --SAVE--> (stays) / keepDraft",
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
export const uploadTable = [
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
export const blogEditorTable = [
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

/**
 * The list pattern as docs/architecture.md states it: loading, ready and failed (a list given a
 * page that is already here starts ready with it); a new query
 * (and only a new one) loads; RELOAD loads the same query again; a load in flight is replaced by
 * a newer one; a failure keeps the page that was shown and says why.
 */
export const listTable = [
  "starting --(always) [hasPage]--> ready",
  "starting --(always)--> loading",
  "loading --xstate.done.actor.fetchPage--> ready",
  "loading --xstate.error.actor.fetchPage--> failed / loadFailed",
  "loading --LOAD [isNewQuery]--> loading (reenter) / takeQuery",
  "loading --RELOAD--> loading (reenter)",
  "loading --KEPT [isAsked]--> (stays)",
  "ready --LOAD [isNewQuery]--> loading / takeQuery",
  "ready --RELOAD--> loading",
  "failed --LOAD [isNewQuery]--> loading / takeQuery",
  "failed --RELOAD--> loading",
  "failed --KEPT [isAsked]--> (stays)"
]

/**
 * Ours, "Keys act on arrival" (docs/architecture.md, "Keys on a list"): a list screen starts
 * with the keyboard on its rows; the rows shown change under the current one without taking the
 * keyboard from wherever it is; j/k move only while the rows have it; a click or focus on a row
 * makes it current and gives the rows the keyboard from anywhere; the search field or a filter
 * takes it (typing) and Escape gives it back; a dialog or the palette takes it (away) and closing
 * gives it back where it was (the rows, or the search the palette was opened from).
 */
export const rowFocusTable = [
  "(machine) --SHOW--> (stays) / follow",
  "(machine) --PICK--> keys.rows / pick",
  "keys.rows --NEXT--> (stays) / next",
  "keys.rows --PREVIOUS--> (stays) / previous",
  "keys.rows --TYPE--> keys.typing",
  "keys.rows --OPEN--> away / leftRows",
  "keys.typing --LEAVE--> keys.rows",
  "keys.typing --OPEN--> away / leftTyping",
  "away --CLOSE [wasTyping]--> keys.typing",
  "away --CLOSE--> keys.rows"
]

/**
 * §4 "Community / influencer listing status": pending → approved | rejected, approved → pending,
 * rejected → approved, and only those (for every listing a change names, as shown; a selection
 * moves as one). Ours (docs/architecture.md, "The browser's store"): a change never waits for the server — it is made at once (the
 * console's command) from any state, and the next key acts on what the screen shows; a change
 * made can be undone for 10 s (its toast; the undo is one more command); a new change or Dismiss
 * ends that window, and so does the server's refusal of that change (the console puts the
 * listings back and says why). Ours (docs/console.md, "Listing moderation"): an undo is said (which listings, back to what) for the
 * same 10 s, until a new change or Dismiss.
 */
export const listingModerationTable = [
  "idle --ACT [isLegal]--> undoable / keepForUndo, change",
  "undoable --ACT [isLegal]--> undoable (reenter) / keepForUndo, change",
  "undoable --UNDO--> undone / undo, showUndone",
  "undoable --DISMISS--> idle / forget",
  "undoable --REFUSED [isDone]--> idle / forget",
  "undoable --xstate.after.undoWindow.listingModeration.undoable--> idle / forget",
  "undone --ACT [isLegal]--> undoable / keepForUndo, change",
  "undone --DISMISS--> idle / forget",
  "undone --xstate.after.undoWindow.listingModeration.undone--> idle / forget"
]

/**
 * §4 "Scam report status" and "…priority": the admin sets any status or priority directly, with
 * no restriction (a value equal to the current one is no change). §2 "Scam Reports": the Details
 * modal edits the admin notes. §8: a failed change shows "Failed to update report status" /
 * "…priority", a failed save "Failed to add admin notes" (the modal stays open). Ours
 * (docs/architecture.md, "The browser's store"): a
 * change is a command — it shows at once, goes out in order with the console's others, and a
 * refusal is the console's notice in those words (the machine only asks for it); the details open
 * while changes are on their way, and their save goes after them (two regions: changes, notes).
 * The saved notes show through the store, with no read of the list.
 */
export const scamReportTable = [
  "changes.idle --SET [isChange]--> (stays) / change",
  "notes.closed --OPEN_NOTES--> notes.open / openNotes",
  "notes.open --SAVE_NOTES--> notes.saving / takeNotes",
  "notes.open --CLOSE--> notes.closed / closeNotes",
  "notes.saving --xstate.done.actor.saveNotes--> notes.closed / closeNotes",
  "notes.saving --xstate.error.actor.saveNotes--> notes.open / showNotesFailure"
]

/**
 * §4 "Advertising inquiry status": the admin UI's one change is to contacted, by "Mark as
 * Contacted" in the detail modal, which sends the admin notes too; "Updating..." while busy; on
 * success the list reloads and the modal closes. §8: a failure is "Failed to update inquiry".
 * Ours (docs/console.md, "Contacts and inquiries"): pending, paid and reviewed → contacted, contacted → converted | rejected, nothing
 * else (the same status is no move); a failure keeps the modal open with the notes typed, and a
 * newer copy the list holds replaces the open one (so a retry names the current version); after
 * a success the confirmation stays until dismissed or another inquiry is opened. The list shows
 * a move through the browser's store, which holds it at once, so the spec's reload is no read of
 * the server (docs/architecture.md, "The browser's store").
 */
export const inquiryTable = [
  "closed --OPEN--> viewing / open",
  "viewing --EDIT--> (stays) / setNotes",
  "viewing --REFRESH--> (stays) / refresh",
  "viewing --MOVE [isLegal]--> updating / takeMove",
  "viewing --CLOSE--> closed / close",
  "updating --xstate.done.actor.update--> done / takeAnswer",
  "updating --xstate.error.actor.update--> failed / showFailure",
  "failed --EDIT--> viewing / setNotes",
  "failed --REFRESH--> (stays) / refresh",
  "failed --MOVE [isLegal]--> updating / takeMove",
  "failed --CLOSE--> closed / close",
  "done --OPEN--> viewing / open",
  "done --DISMISS--> closed / forget"
]

/**
 * Ours (docs/architecture.md, "Record history"): `h` or the palette's "Show history" opens a record's history
 * (its versions, newest first, the newest selected); selecting one shows what it changed;
 * comparing loads two versions side by side; "Restore this version" first shows what will
 * change (the record now beside the chosen version), and only a confirmation writes it, at the
 * version the person saw. The newest version and a removal can't be restored. A refusal says why
 * and shows the history as it is now (the newer version offered); a success says which version
 * came back as which, and the screen's list reads the record again. Escape closes, except while
 * a restore is on its way.
 */
export const historyTable = [
  "closed --OPEN--> loading / open",
  "loading --xstate.done.actor.loadHistory--> ready / takePage",
  "loading --xstate.error.actor.loadHistory--> failed / fail",
  "loading --CLOSE--> closed / close",
  "failed --RETRY--> loading / clearError",
  "failed --CLOSE--> closed / close",
  "ready --SELECT [isVersion]--> (stays) / select",
  "ready --COMPARE [isOther]--> comparing",
  "ready --RESTORE [canRestore]--> preparing / clearError",
  "ready --CLOSE--> closed / close",
  "comparing --xstate.done.actor.compare--> ready / takePair",
  "comparing --xstate.error.actor.compare--> ready / fail",
  "comparing --CLOSE--> closed / close",
  "preparing --xstate.done.actor.prepare--> confirming / takePair",
  "preparing --xstate.error.actor.prepare--> ready / fail",
  "preparing --CLOSE--> closed / close",
  "confirming --CONFIRM--> restoring",
  "confirming --CANCEL--> ready / forgetPair",
  "confirming --CLOSE--> closed / close",
  "restoring --xstate.done.actor.restore--> loading / takeRestored, recordChanged",
  "restoring --xstate.error.actor.restore--> loading / fail"
]

/**
 * Ours, the sync machine (docs/architecture.md, "The browser's store"): a console
 * catches up from its last event before it is live, and a lost link makes it offline until the
 * link is back; commands wait in the outbox and go out one at a time, in order, only while the
 * link is live; a command the server answers leaves the outbox, refused or not; one the network
 * lost stays for the next time (and the link is down); a busy server is asked again after the
 * wait it names; a refusal is kept until the person has seen it, also one another tab heard for a
 * command this tab made whose screen has gone. The outbox is counted as read, too: the tabs share
 * it, and one tab's commands are every tab's to send.
 */
export const syncTable = [
  "(machine) --QUEUED--> (stays) / countQueued",
  "(machine) --OUTBOX_READ--> (stays) / countRead",
  "(machine) --HEARD_REFUSAL--> (stays) / keepRefusal",
  "link.catchingUp --CAUGHT_UP--> link.online",
  "link.catchingUp --LINK_DOWN--> link.offline",
  "link.online --LINK_DOWN--> link.offline",
  "link.offline --LINK_UP--> link.catchingUp",
  "link.offline --xstate.after.retryLink.sync.link.offline--> link.catchingUp",
  "outbox.idle --(always) [maySend]--> outbox.sending",
  "outbox.sending --xstate.done.actor.sendNext [wasSent]--> outbox.idle / countAnswered",
  "outbox.sending --xstate.done.actor.sendNext [wasRefused]--> outbox.idle / countAnswered, keepRefusal, refused",
  "outbox.sending --xstate.done.actor.sendNext--> outbox.waiting / waitAsked",
  "outbox.sending --xstate.error.actor.sendNext--> outbox.idle,link.offline",
  "outbox.sending --LINK_DOWN--> outbox.idle",
  "outbox.waiting --xstate.after.retryAfter.sync.outbox.waiting--> outbox.idle",
  "outbox.waiting --LINK_DOWN--> outbox.idle",
  "conflicts.none --(always) [hasRefusals]--> conflicts.shown",
  "conflicts.shown --DISMISS--> (stays) / forgetRefusal",
  "conflicts.shown --(always) [allSeen]--> conflicts.none"
]

/**
 * Ours (docs/security.md, "Confirm what matters"; docs/console.md, "Confirm it's you"): before a
 * change to admins, roles, the allowed addresses, protected data or passkey rules, the console asks
 * whether this session confirmed within 10 minutes; if it did (or the server can't say), the change
 * goes; if not, the person confirms with their passkey, or having none with a code by e-mail (sent
 * at once, sent again on request, a wrong one said and the field kept), or cancels (the change
 * goes and the server refuses it).
 */
export const confirmAgainTable = [
  "idle --ASK--> checking",
  "checking --xstate.done.actor.status [stillConfirmed]--> idle / confirmed",
  "checking --xstate.done.actor.status [byPasskey]--> passkey",
  "checking --xstate.done.actor.status--> code",
  "checking --xstate.error.actor.status--> idle / confirmed",
  "passkey --CANCEL--> idle / cancelled",
  "passkey.offered --USE_PASSKEY--> passkey.asserting",
  "passkey.asserting --xstate.done.actor.confirmWithPasskey--> idle / confirmed",
  "passkey.asserting --xstate.error.actor.confirmWithPasskey--> passkey.offered",
  "code --CANCEL--> idle / cancelled",
  "code.sending --xstate.done.actor.sendCode--> code.sent",
  "code.sending --xstate.error.actor.sendCode--> code.sent",
  "code.sent --VERIFY--> code.verifying",
  "code.sent --RESEND--> code.sending",
  "code.verifying --xstate.done.actor.verifyCode--> idle / confirmed",
  "code.verifying --xstate.error.actor.verifyCode--> code.sent"
]

/**
 * Ours (docs/console.md, "The triage desk"): one key per decision on the item shown, the same keys
 * as its area's own screen; rejecting a listing and dismissing a report ask for a reason first,
 * which may be left empty; `s` asks until when to snooze, Shift+I whom to assign, `m` which item
 * of its kind it duplicates, and none of these is taken empty; `i` assigns the person at once;
 * Escape leaves a question with nothing done. Each answer is one command.
 */
export const triageDeskTable = [
  "browsing --DECIDE [asksReason]--> asking / ask",
  "browsing --DECIDE--> (stays) / decide",
  "browsing --ASSIGN_ME--> (stays) / assignMe",
  "browsing --ASK--> asking / ask",
  "asking --ANSWER [isReason]--> browsing / answer, forget",
  "asking --ANSWER [hasValue]--> browsing / answer, forget",
  "asking --CANCEL--> browsing / forget"
]
