/**
 * A session's browser and system, read from its user agent for people, not for decisions: the
 * common browsers and systems by their tokens, in the order that tells them apart (Edge and
 * Opera say "Chrome" too; Chrome says "Safari").
 */
const browsers: ReadonlyArray<readonly [RegExp, string]> = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/OPR\/(\d+)/, "Opera"],
  [/Firefox\/(\d+)/, "Firefox"],
  [/FxiOS\/(\d+)/, "Firefox"],
  [/CriOS\/(\d+)/, "Chrome"],
  [/Chrom(?:e|ium)\/(\d+)/, "Chrome"],
  [/Version\/(\d+)[\d.]* .*Safari\//, "Safari"]
]

const systems: ReadonlyArray<readonly [RegExp, string]> = [
  [/iPhone|iPad|iPod/, "iOS"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Mac OS X|Macintosh/, "macOS"],
  [/Linux/, "Linux"]
]

export const describeUserAgent = (userAgent: string | null): string => {
  if (userAgent === null || userAgent.trim() === "") return "Unknown browser"
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))
  const version = browser === undefined ? undefined : browser[0].exec(userAgent)?.[1]
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1]
  const name = browser === undefined ? (userAgent.split(/[\s/]/)[0] ?? "Unknown browser") : `${browser[1]}${version === undefined ? "" : ` ${version}`}`
  return system === undefined ? name : `${name} on ${system}`
}
