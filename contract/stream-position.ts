/**
 * The header on staff's reads (an API GET with the session's bearer token, a 200) that says where the change
 * stream stood when the server began the read: the newest activity-log event id (docs/api.md,
 * "Live changes"). A stream that starts after it brings every change the read could lack, so the
 * console's first stream starts there instead of reading its first page again. No effect here:
 * the first screen reads it before effect has loaded.
 */
export const STREAM_POSITION_HEADER = "stream-position"
