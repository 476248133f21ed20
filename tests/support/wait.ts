/**
 * The tests' waits. A test waits on state (`until`, `expect.poll`), never on time; `sleep` is
 * for what a scenario itself lasts (a server stopped for 12 s, writers at work for a while, a
 * reader's pace) and for the pause between two looks at state.
 */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once `ready()` holds, looking every `everyMs`; past `timeoutMs` rejects naming `what`. */
export const until = async (ready: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000, everyMs = 25): Promise<void> => {
  const deadline = performance.now() + timeoutMs
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await sleep(everyMs)
  }
}
