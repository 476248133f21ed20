/** Where the console keeps the session token (spec: `adminToken`). */
export const TOKEN_KEY = "adminToken"
