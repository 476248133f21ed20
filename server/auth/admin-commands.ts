import { Effect, Schema } from "effect"
import { Email, type Role, Roles } from "../../contract/common.ts"
import { addAdmin, listAdmins, setAdminDisabled, setAdminName } from "./admins.ts"

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
  npm run admin -- name EMAIL "NAME"                the name readers see on their posts`

export type AdminCommand =
  | { readonly name: "add"; readonly email: string; readonly role: Role; readonly displayName: string | null }
  | { readonly name: "list" }
  | { readonly name: "disable" | "enable"; readonly email: string }
  | { readonly name: "name"; readonly email: string; readonly displayName: string }

/** What a command printed and how it ended, the same whichever process ran it. */
export interface CommandResult {
  readonly code: number
  readonly out: string
  readonly err: string
}

const isEmail = Schema.is(Email)
const isRole = (value: string | undefined): value is Role => Roles.some((role) => role === value)
const MAX_NAME = 80

/** Reads the arguments before anything touches the database; a mistake answers at once. */
export const parseAdminCommand = (args: ReadonlyArray<string>): AdminCommand | string => {
  const [name, first, second, ...rest] = args
  if (name === "list" && args.length === 1) return { name }
  if (name !== "add" && name !== "disable" && name !== "enable" && name !== "name") return usage
  if (first === undefined || !isEmail(first)) return `"${first ?? ""}" is not an e-mail address.\n${usage}`
  if (name === "name") {
    const trimmed = second?.trim() ?? ""
    if (args.length !== 3 || trimmed === "" || trimmed.length > MAX_NAME) return `The display name must be 1 to ${MAX_NAME} characters.`
    return { name, email: first, displayName: trimmed }
  }
  if (name !== "add") return args.length === 2 ? { name, email: first } : usage
  if (!isRole(second)) return `"${second ?? ""}" is not a role (${Roles.join(", ")}).`
  if (rest.length === 0) return { name, email: first, role: second, displayName: null }
  const [flag, displayName, ...extra] = rest
  if (flag !== "--name" || displayName === undefined || extra.length > 0) return usage
  const trimmed = displayName.trim()
  if (trimmed === "" || trimmed.length > MAX_NAME) return `The display name must be 1 to ${MAX_NAME} characters.`
  return { name, email: first, role: second, displayName: trimmed }
}

const runCommand = (command: AdminCommand) =>
  Effect.gen(function*() {
    switch (command.name) {
      case "add": {
        const admin = yield* addAdmin(command.email, command.role, command.displayName)
        return `Added ${admin.email} as ${admin.role}${admin.name === null ? "" : ` (${admin.name})`}.\n`
      }
      case "list": {
        const admins = yield* listAdmins
        if (admins.length === 0) return "No admins yet.\n"
        return admins.map((admin) => `${admin.email}\t${admin.role}\t${admin.disabled ? "disabled" : "enabled"}${admin.name === null ? "" : `\t${admin.name}`}\n`).join("")
      }
      case "name": {
        yield* setAdminName(command.email, command.displayName)
        return `${command.email.toLowerCase()} is now shown as ${command.displayName}.\n`
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
      AdminExists: (error) => Effect.succeed<CommandResult>({ code: 1, out: "", err: `${error.message}\n` }),
      AdminNotFound: (error) => Effect.succeed<CommandResult>({ code: 1, out: "", err: `${error.message}\n` })
    })
  )
}
