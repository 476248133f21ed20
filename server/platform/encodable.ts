import { Effect, Schema } from "effect"

/**
 * Checks, inside the write's transaction, that the record about to be answered encodes as its
 * schema; if not, the transaction rolls back (a defect) instead of committing a row whose answer
 * fails afterwards and whose presence would break every list (docs/api.md, "Answers and errors"). It encodes
 * with the JSON codec the HTTP API answers with (`Schema.toCodecJson`), which is stricter than
 * the schema alone: an `undefined` inside an `Unknown` is not JSON.
 */
export const encodableAs = <S extends Schema.Codec<unknown, unknown, never, never>>(schema: S) => {
  const encode = Schema.encodeUnknownEffect(Schema.toCodecJson(schema))
  return <A>(value: A) => encode(value).pipe(Effect.orDie, Effect.as(value))
}
