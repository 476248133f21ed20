export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: Record<string, unknown>
  readonly text: string
}

export interface CallOptions {
  readonly body?: unknown
  readonly raw?: string
  readonly token?: string
  /** The client address the server should see (the test servers trust X-Forwarded-For). */
  readonly ip?: string
  readonly headers?: Record<string, string>
}

/** One HTTP call to a test server, answer parsed when it is JSON. */
export const call = async (base: string, method: string, path: string, options: CallOptions = {}): Promise<Answer> => {
  const headers: Record<string, string> = { ...options.headers }
  if (options.body !== undefined || options.raw !== undefined) headers["content-type"] ??= "application/json"
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  if (options.ip !== undefined) headers["x-forwarded-for"] = options.ip
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  })
  const text = await response.text()
  let body: Record<string, unknown> = {}
  try {
    body = JSON.parse(text) as Record<string, unknown>
  } catch {
    body = {}
  }
  return { status: response.status, headers: response.headers, body, text }
}

let ipCounter = 0
/** A client address no other test in this process uses, so rate limits don't cross tests. */
export const freshIp = (): string => {
  ipCounter += 1
  return `198.18.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}`
}
