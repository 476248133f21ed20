import { adminMessages } from "../../contract/admin-users.ts"
import { requireSuperAdmin } from "../auth/roles.ts"

/** Only super admins manage admins, addresses and protected data. */
export const superAdmin = requireSuperAdmin(adminMessages.superOnly)
