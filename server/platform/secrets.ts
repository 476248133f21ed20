import { createHash, createHmac, randomBytes, randomInt } from "node:crypto"
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"

/**
 * The key for hashing one-time codes. `OTP_SECRET` wins; otherwise a random key is made once
 * in `DATA_DIR/secret.key` (mode 600), so a copy of the database alone cannot test codes.
 */
export const loadOtpKey = (config: { otpSecret: string | undefined; dataDir: string }): string => {
  if (config.otpSecret !== undefined) return config.otpSecret
  const file = join(config.dataDir, "secret.key")
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 })
    chmodSync(file, 0o600)
  }
  return readFileSync(file, "utf8").trim()
}

/** Six decimal digits from the CSPRNG, leading zeros kept. */
export const newOtpCode = (): string => randomInt(0, 1_000_000).toString().padStart(6, "0")

export const hashOtp = (key: string, email: string, code: string): string => createHmac("sha256", key).update(`${email}\n${code}`).digest("hex")

/** 256 random bits, URL-safe. */
export const newSessionToken = (): string => randomBytes(32).toString("base64url")

/** Tokens carry 256 bits of entropy, so a plain SHA-256 is enough to store them. */
export const hashToken = (token: string): string => createHash("sha256").update(token).digest("hex")
