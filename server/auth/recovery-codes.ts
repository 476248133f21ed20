import { randomInt } from "node:crypto"

/** Recovery codes (docs/security.md, "Passkeys"): made here, stored hashed (repository.ts), each used once. */

/** Crockford's base 32: no I, L, O or U, so a code read aloud or copied by hand survives. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

/** Twelve characters (60 bits) from the CSPRNG, shown in three groups of four. */
export const newRecoveryCode = (): string => {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(0, 32)] ?? "0").join("")
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`
}

/** A recovery code as typed, in the form it was hashed: dashes and spaces out, lower case, Crockford's look-alikes read as digits. */
export const normalizeRecoveryCode = (typed: string): string => typed.toLowerCase().replaceAll(/[\s-]/gu, "").replaceAll("o", "0").replaceAll(/[il]/gu, "1")
