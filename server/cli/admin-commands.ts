import { Effect, Schema } from "effect"
import { Email, type Role, Roles } from "../../contract/common.ts"
import { MAX_DISPLAY_NAME } from "../../contract/admin-users.ts"
import { normalizeIpRange } from "../../contract/ip-rules.ts"
import { addAdmin, findAdmin, listAdmins, normalizeEmail, setAdminDisabled, setAdminName, setAdminRole } from "../admin-users/repository.ts"
import { resetAccountPasskeys } from "../auth/passkeys.ts"
import { NotFound } from "../../contract/common.ts"
import { allowIp, clearAllowedIps, listAllowedIps } from "../allowed-ips/repository.ts"
import type { CommandResult } from "../platform/admin-channel.ts"
import { commandLine } from "../platform/record-writes.ts"

/**
 * `npm run admin`, as one module for both ways it runs: in the CLI process when no server holds
 * the embedded data folder, and inside the running server through its admin channel when one does
 * (docs/architecture.md, "Backup and restore"). Either way the same words come back.
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

export type { CommandResult }

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

const runCommand = (command: AdminCommand) =>
  Effect.gen(function* () {
    switch (command.name) {
      case "add": {
        const admin = yield* addAdmin(command.email, command.role, command.displayName, commandLine)
        return `Added ${admin.email} as ${admin.role}${admin.name === null ? "" : ` (${admin.name})`}.\n`
      }
      case "list": {
        const admins = yield* listAdmins
        if (admins.length === 0) return "No admins yet.\n"
        return admins
          .map((admin) => `${admin.email}\t${admin.role}\t${admin.disabled ? "disabled" : "enabled"}${admin.name === null ? "" : `\t${admin.name}`}\n`)
          .join("")
      }
      case "name": {
        yield* setAdminName(command.email, command.displayName)
        return `${command.email.toLowerCase()} is now shown as ${command.displayName}.\n`
      }
      case "role": {
        yield* setAdminRole(command.email, command.role)
        return `${command.email.toLowerCase()} is now ${command.role}.\n`
      }
      case "allow-ip": {
        const allowed = yield* allowIp(command.ip, command.description, commandLine)
        return `Allowed ${allowed.ip}. Admin endpoints now answer only the listed addresses.\n`
      }
      case "ips": {
        const ips = yield* listAllowedIps
        if (ips.length === 0) return "No allowed addresses: every address may sign in.\n"
        return ips.map((ip) => `${ip.ip}${ip.description === "" ? "" : `\t${ip.description}`}\n`).join("")
      }
      case "clear-ips": {
        const removed = yield* clearAllowedIps
        return `Removed ${removed} allowed address${removed === 1 ? "" : "es"}: every address may sign in again.\n`
      }
      case "reset-passkeys": {
        const admin = yield* findAdmin(normalizeEmail(command.email))
        if (admin === undefined) return yield* new NotFound({ error: `${normalizeEmail(command.email)} is not an admin` })
        const reset = yield* resetAccountPasskeys(admin.id, null)
        if (reset === undefined) return yield* new NotFound({ error: `${admin.email} is not an admin` })
        return `Removed ${reset.removed} passkey${reset.removed === 1 ? "" : "s"} and the recovery codes of ${admin.email}, and ended their sessions. A code by e-mail alone signs them in until ${reset.graceUntil.toISOString().slice(0, 16).replace("T", " ")} UTC to add a passkey.\n`
      }
      case "disable":
      case "enable": {
        yield* setAdminDisabled(command.email, command.name === "disable")
        return `${command.email.toLowerCase()} is ${command.name}d.\n`
      }
    }
  })

/** Parses and runs one command line; every expected failure is a message and code 1. */
export const executeAdminCommand = (args: ReadonlyArray<string>) => {
  const command = parseAdminCommand(args)
  if (typeof command === "string") return Effect.succeed<CommandResult>({ code: 1, out: "", err: `${command}\n` })
  return runCommand(command).pipe(
    Effect.map((out): CommandResult => ({ code: 0, out, err: "" })),
    Effect.catchTags({
      Conflict: (error) => Effect.succeed<CommandResult>({ code: 1, out: "", err: `${error.error}\n` }),
      NotFound: (error) => Effect.succeed<CommandResult>({ code: 1, out: "", err: `${error.error}\n` }),
      IpInvalid: (error) => Effect.succeed<CommandResult>({ code: 1, out: "", err: `${error.message}\n` })
    })
  )
}
