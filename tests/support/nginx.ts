import { type ChildProcess, spawn } from "node:child_process"
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { connect, createServer } from "node:net"
import { tmpdir } from "node:os"
import { delimiter, join } from "node:path"
import { root } from "./process.ts"

/**
 * nginx in front of the servers, configured as docs/deploy.md shows: the test reads the
 * ```nginx block there, puts its own ports in, and runs Debian's nginx on it (installed by
 * .ci/run; never downloaded at run time). A documented configuration that no longer runs fails
 * the two-server test.
 */

const candidates = ["nginx", "/usr/sbin/nginx"]

export const findNginx = (): string => {
  for (const name of candidates) {
    const paths = name.startsWith("/") ? [name] : (process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, name))
    for (const path of paths) {
      try {
        accessSync(path, constants.X_OK)
        return path
      } catch {
        // not here
      }
    }
  }
  throw new Error("nginx is not installed: the two-server test runs Debian's nginx (apt-get install nginx; .ci/run installs it)")
}

/** The site configuration docs/deploy.md shows, with the proxy on `listen` and the servers on `upstreams`. */
export const documentedSite = (listen: number, upstreams: ReadonlyArray<number>): string => {
  const doc = readFileSync(join(root, "docs", "deploy.md"), "utf8")
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1]
  if (block === undefined) throw new Error("docs/deploy.md shows no ```nginx block")
  // `server 127.0.0.1:PORT` and its parameters (`max_fails=1 fail_timeout=10s`), kept as written.
  const upstream = /^ {4}server 127\.0\.0\.1:\d+((?: [a-z_]+=\w+)*);$/gm
  const servers = block.match(upstream) ?? []
  if (servers.length !== upstreams.length) throw new Error(`docs/deploy.md's upstream names ${servers.length} servers, the test runs ${upstreams.length}`)
  let next = 0
  const site = block
    .replace(upstream, (_, parameters: string) => `    server 127.0.0.1:${upstreams[next++]}${parameters};`)
    .replace(/^ {4}listen 80;$/m, `    listen 127.0.0.1:${listen};`)
  if (!site.includes(`listen 127.0.0.1:${listen};`)) throw new Error("docs/deploy.md's server block does not `listen 80;`")
  return site
}

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => (socket.destroy(), resolve(true)))
    socket.once("error", () => resolve(false))
  })

export interface RunningNginx {
  readonly url: string
  readonly errors: () => string
  readonly stop: () => Promise<void>
}

/** Starts nginx on a free port in front of `upstreams`, in a folder of its own (its logs, its temporary files). */
export const startNginx = async (upstreams: ReadonlyArray<number>): Promise<RunningNginx> => {
  const binary = findNginx()
  const prefix = mkdtempSync(join(tmpdir(), "admin-nginx-"))
  chmodSync(prefix, 0o755)
  // Run as root, nginx's workers are `nobody`: they write request bodies and buffers here.
  for (const folder of ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]) {
    mkdirSync(join(prefix, folder))
    chmodSync(join(prefix, folder), 0o777)
  }
  const port = await freePort()
  const conf = `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
${documentedSite(port, upstreams)}
}
`
  writeFileSync(join(prefix, "nginx.conf"), conf)
  const child: ChildProcess = spawn(binary, ["-p", prefix, "-c", join(prefix, "nginx.conf"), "-e", join(prefix, "error.log"), "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise((resolve) => child.once("exit", resolve))
  const errors = () => {
    try {
      return `${output}${readFileSync(join(prefix, "error.log"), "utf8")}`
    } catch {
      return output
    }
  }
  const until = Date.now() + 10_000
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`nginx did not start:\n${errors()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    url: `http://127.0.0.1:${port}`,
    errors,
    stop: async () => {
      child.kill("SIGQUIT")
      await exited
      rmSync(prefix, { recursive: true, force: true })
    }
  }
}
