import { Schema } from "effect"
import { Email, type Role, Roles } from "../../contract/common.ts"
import { MAX_DISPLAY_NAME } from "../../contract/admin-users.ts"
import { normalizeIpRange } from "../../contract/ip-rules.ts"

/**
 * `npm run admin`'s words: what each command line means, read before anything touches the
 * database (server/cli/admin-commands.ts runs it). Apart so that a command a running server
 * takes through its admin channel, or a mistake, loads no more than this (server/cli/admin.ts).
 */

export const usage = `Usage:
  npm run admin -- add EMAIL ROLE [--name "NAME"]   ROLE is one of ${Roles.join(", ")}
  npm run admin -- list
  npm run admin -- disable EMAIL                    also ends every session of that admin
  npm run admin -- enable EMAIL
  npm run admin -- name EMAIL "NAME"                the name readers see on their posts
  npm run admin -- role EMAIL ROLE                  a lower role applies to open sessions at once
  npm run admin -- allow-ip IP|CIDR ["DESCRIPTION"] admin endpoints then answer only listed addresses
  npm run admin -- ips                              the allowed addresses (none: every address)
  npm run admin -- clear-ips                        every address may sign in again (after a lock-out)
  npm run admin -- reset-passkeys EMAIL             removes their passkeys and recovery codes, ends their sessions;
                                                    a code alone signs them in for 3 days to add a passkey`

export type AdminCommand =
  | { readonly name: "add"; readonly email: string; readonly role: Role; readonly displayName: string | null }
  | { readonly name: "list" }
  | { readonly name: "disable" | "enable" | "reset-passkeys"; readonly email: string }
  | { readonly name: "name"; readonly email: string; readonly displayName: string }
  | { readonly name: "role"; readonly email: string; readonly role: Role }
  | { readonly name: "allow-ip"; readonly ip: string; readonly description: string }
  | { readonly name: "ips" | "clear-ips" }

const isEmail = Schema.is(Email)
const isRole = (value: string | undefined): value is Role => Roles.some((role) => role === value)

/** Reads the arguments before anything touches the database; a mistake answers at once. */
export const parseAdminCommand = (args: ReadonlyArray<string>): AdminCommand | string => {
  const [name, first, second, ...rest] = args
  if ((name === "list" || name === "ips" || name === "clear-ips") && args.length === 1) return { name }
  if (name === "allow-ip") {
    if (first === undefined || normalizeIpRange(first) === undefined || rest.length > 0) return `"${first ?? ""}" is not an IP address or CIDR range.\n${usage}`
    return { name, ip: first, description: second?.trim() ?? "" }
  }
  if (name !== "add" && name !== "role" && name !== "disable" && name !== "enable" && name !== "name" && name !== "reset-passkeys") return usage
  if (first === undefined || !isEmail(first)) return `"${first ?? ""}" is not an e-mail address.\n${usage}`
  if (name === "name") {
    const trimmed = second?.trim() ?? ""
    if (args.length !== 3 || trimmed === "" || trimmed.length > MAX_DISPLAY_NAME) return `The display name must be 1 to ${MAX_DISPLAY_NAME} characters.`
    return { name, email: first, displayName: trimmed }
  }
  if (name === "role")
    return isRole(second) && args.length === 3 ? { name, email: first, role: second } : `"${second ?? ""}" is not a role (${Roles.join(", ")}).`
  if (name !== "add") return args.length === 2 ? { name, email: first } : usage
  if (!isRole(second)) return `"${second ?? ""}" is not a role (${Roles.join(", ")}).`
  if (rest.length === 0) return { name, email: first, role: second, displayName: null }
  const [flag, displayName, ...extra] = rest
  if (flag !== "--name" || displayName === undefined || extra.length > 0) return usage
  const trimmed = displayName.trim()
  if (trimmed === "" || trimmed.length > MAX_DISPLAY_NAME) return `The display name must be 1 to ${MAX_DISPLAY_NAME} characters.`
  return { name, email: first, role: second, displayName: trimmed }
}
