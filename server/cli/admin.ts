import { Effect, Schema } from "effect"
import { Email, Role, Roles } from "../../contract/common.ts"
import { addAdmin, listAdmins, setAdminDisabled } from "../auth/admins.ts"
import { runCli } from "./run.ts"

const usage = `Usage:
  npm run admin -- add EMAIL ROLE      ROLE is one of ${Roles.join(", ")}
  npm run admin -- list
  npm run admin -- disable EMAIL       also ends every session of that admin
  npm run admin -- enable EMAIL`

class UsageError extends Schema.TaggedError<UsageError>()("UsageError", { message: Schema.String }) {}

const email = (value: string | undefined) =>
  Schema.decodeUnknownEffect(Email)(value).pipe(
    Effect.mapError(() => new UsageError({ message: `"${value ?? ""}" is not an e-mail address.\n${usage}` }))
  )

const role = (value: string | undefined) =>
  Schema.decodeUnknownEffect(Role)(value).pipe(
    Effect.mapError(() => new UsageError({ message: `"${value ?? ""}" is not a role (${Roles.join(", ")}).` }))
  )

const [command, ...args] = process.argv.slice(2)

const task = Effect.gen(function*() {
  switch (command) {
    case "add": {
      const admin = yield* addAdmin(yield* email(args[0]), yield* role(args[1]))
      console.log(`Added ${admin.email} as ${admin.role}.`)
      return
    }
    case "list": {
      const admins = yield* listAdmins
      if (admins.length === 0) console.log("No admins yet.")
      for (const admin of admins) {
        console.log(`${admin.email}\t${admin.role}\t${admin.disabled ? "disabled" : "enabled"}`)
      }
      return
    }
    case "disable":
    case "enable": {
      const address = yield* email(args[0])
      yield* setAdminDisabled(address, command === "disable")
      console.log(`${address} is ${command}d.`)
      return
    }
    default:
      return yield* new UsageError({ message: usage })
  }
})

runCli(task)
