import { Effect, Schema } from "effect"
import { Email, type Role, Roles } from "../../contract/common.ts"
import { addAdmin, listAdmins, setAdminDisabled } from "../auth/admins.ts"
import { runCli } from "./run.ts"

const usage = `Usage:
  npm run admin -- add EMAIL ROLE      ROLE is one of ${Roles.join(", ")}
  npm run admin -- list
  npm run admin -- disable EMAIL       also ends every session of that admin
  npm run admin -- enable EMAIL`

type Command =
  | { readonly name: "add"; readonly email: string; readonly role: Role }
  | { readonly name: "list" }
  | { readonly name: "disable" | "enable"; readonly email: string }

const isEmail = Schema.is(Email)
const isRole = (value: string | undefined): value is Role => Roles.some((role) => role === value)

/** Reads the arguments before anything touches the database; a mistake answers at once. */
const parse = (args: ReadonlyArray<string>): Command | string => {
  const [name, first, second] = args
  if (name === "list") return { name }
  if (name !== "add" && name !== "disable" && name !== "enable") return usage
  if (first === undefined || !isEmail(first)) return `"${first ?? ""}" is not an e-mail address.\n${usage}`
  if (name !== "add") return { name, email: first }
  if (!isRole(second)) return `"${second ?? ""}" is not a role (${Roles.join(", ")}).`
  return { name, email: first, role: second }
}

const execute = (command: Command) =>
  Effect.gen(function*() {
    switch (command.name) {
      case "add": {
        const admin = yield* addAdmin(command.email, command.role)
        console.log(`Added ${admin.email} as ${admin.role}.`)
        return
      }
      case "list": {
        const admins = yield* listAdmins
        if (admins.length === 0) console.log("No admins yet.")
        for (const admin of admins) console.log(`${admin.email}\t${admin.role}\t${admin.disabled ? "disabled" : "enabled"}`)
        return
      }
      case "disable":
      case "enable": {
        yield* setAdminDisabled(command.email, command.name === "disable")
        console.log(`${command.email.toLowerCase()} is ${command.name}d.`)
      }
    }
  })

const command = parse(process.argv.slice(2))
if (typeof command === "string") {
  console.error(command)
  process.exit(1)
}
runCli(execute(command))
