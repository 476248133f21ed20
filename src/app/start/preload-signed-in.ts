import { TOKEN_KEY } from "../../lib/token.ts"

/** The files a signed-in first screen loads beyond the sign-in form's, as the build names them. */
export interface SignedInFiles {
  /** Every signed-in screen's: the shell and the directories (the `signed-in` chunk and its stylesheet). */
  readonly always: ReadonlyArray<string>
  /** A feature's screens in a chunk of their own, by the path they are served under (`/blog`). */
  readonly byPath: ReadonlyArray<readonly [path: string, files: ReadonlyArray<string>]>
}

/**
 * The inline script at the top of `index.html`: with a stored token, it asks for the signed-in
 * screens' files while the page is still being parsed, so the sign-in form never waits on them
 * and a signed-in first screen never waits for the start chunk to ask (docs/architecture.md,
 * "First screen"). The build compiles this module with the files it wrote
 * (tools/first-screen/page-preloads.ts); the server allows the script by its hash.
 */
export const preloadSignedIn = (files: SignedInFiles): void => {
  try {
    if (localStorage.getItem(TOKEN_KEY) === null) return
  } catch {
    return
  }
  const path = location.pathname
  const wanted = [...files.always, ...files.byPath.filter(([under]) => path === under || path.startsWith(`${under}/`)).flatMap(([, more]) => more)]
  for (const file of wanted) {
    const link = document.createElement("link")
    if (file.endsWith(".css")) {
      link.rel = "preload"
      link.as = "style"
    } else link.rel = "modulepreload"
    link.crossOrigin = ""
    link.href = file
    document.head.append(link)
  }
}
