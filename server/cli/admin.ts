import { Effect } from "effect"
import { parseAdminCommand } from "./admin-words.ts"
import { adminThroughServer, type CommandResult, hasAdminChannel } from "../platform/admin-channel.ts"
import { DataFolderInUse, liveHolder } from "../platform/data-lock.ts"
import { configOrExit, embeddedFolder, finish, runCli } from "./run.ts"

/**
 * `npm run admin -- …`: with the embedded database held by a running server, the command runs
 * in that server through its admin channel; otherwise this process opens the database itself
 * (docs/architecture.md, "Backup and restore").
 */
const args = process.argv.slice(2)
const parsed = parseAdminCommand(args)
if (typeof parsed === "string") {
  console.error(parsed)
  finish(1)
}

const print = (result: CommandResult): number => {
  process.stdout.write(result.out)
  process.stderr.write(result.err)
  return result.code
}

const config = configOrExit()
const folder = embeddedFolder(config)
const holder = folder === undefined ? undefined : liveHolder(folder)
if (folder !== undefined && holder !== undefined) {
  if (!hasAdminChannel(config.dataDir)) {
    console.error(new DataFolderInUse(folder, holder).message)
    finish(1)
  }
  adminThroughServer(config.dataDir, args).then(
    (result) => finish(print(result)),
    (error: unknown) => {
      console.error(`The server holding ${folder} did not answer on its admin channel: ${String(error)}`)
      finish(1)
    }
  )
} else {
  // The database's code loads only here: a command a running server takes loads none of it.
  runCli(
    Effect.flatMap(
      Effect.promise(() => import("./admin-commands.ts")),
      ({ executeAdminCommand }) => Effect.map(executeAdminCommand(args), print)
    )
  )
}
