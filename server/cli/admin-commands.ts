import { Effect } from "effect"
import { addAdmin, findAdmin, listAdmins, normalizeEmail, setAdminDisabled, setAdminName, setAdminRole } from "../admin-users/repository.ts"
import { resetAccountPasskeys } from "../auth/passkeys.ts"
import { NotFound } from "../../contract/common.ts"
import { allowIp, clearAllowedIps, listAllowedIps } from "../allowed-ips/repository.ts"
import type { CommandResult } from "../platform/admin-channel.ts"
import { commandLine } from "../platform/record-writes.ts"
import { type AdminCommand, parseAdminCommand } from "./admin-words.ts"

/**
 * `npm run admin`, as one module for both ways it runs: in the CLI process when no server holds
 * the embedded data folder, and inside the running server through its admin channel when one does
 * (docs/architecture.md, "Backup and restore"). Either way the same words come back.
 */

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
