/** Where the console keeps the session token (spec: `adminToken`). */
export const TOKEN_KEY = "adminToken"

/**
 * Where the console keeps who the token was last confirmed for (the session check's `user`), so a
 * load with no link opens signed in (docs/security.md, "What stays in the browser"). Kept and
 * forgotten with the token.
 */
export const USER_KEY = "adminUser"

/**
 * Where the console keeps this browser's key (docs/security.md, "Sign-in"): sent with every
 * sign-in, so a browser an admin signed in from keeps its own way in while strangers guess their
 * codes. It outlives sign-out on purpose; it opens nothing by itself.
 */
export const BROWSER_KEY = "knownBrowser"
