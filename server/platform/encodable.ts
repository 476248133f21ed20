import { Effect, Schema } from "effect"

/**
 * Checks, inside the write's transaction, that the record about to be answered encodes as its
 * schema; if not, the transaction rolls back (a defect) instead of committing a row whose answer
 * fails afterwards and whose presence would break every list (docs/api.md, "Errors").
 */
export const encodableAs = <S extends Schema.Codec<unknown, unknown, never, never>>(schema: S) => <A>(value: A) =>
  Schema.encodeUnknownEffect(schema)(value).pipe(Effect.orDie, Effect.as(value))
