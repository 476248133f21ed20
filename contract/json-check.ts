/**
 * A JSON Schema checker for the few answers the first screen reads before effect has loaded
 * (src/api/checked-answer.ts). It knows the keywords effect's `Schema.toJsonSchemaDocument`
 * writes for the contract's answers and refuses any other at build time
 * (tools/first-screen/answer-schemas.ts), so an answer it passes is one the contract's schema passes:
 * tests/unit/answer-checks.test.ts holds the two to the same verdicts. String lengths count
 * UTF-16 units, as effect's `isMaxLength` does.
 */
export interface JsonSchema {
  readonly type?: JsonType | ReadonlyArray<JsonType>
  readonly enum?: ReadonlyArray<unknown>
  readonly const?: unknown
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: boolean | JsonSchema
  readonly items?: JsonSchema | false
  readonly prefixItems?: ReadonlyArray<JsonSchema>
  readonly minItems?: number
  readonly maxItems?: number
  readonly anyOf?: ReadonlyArray<JsonSchema>
  readonly allOf?: ReadonlyArray<JsonSchema>
  readonly minLength?: number
  readonly maxLength?: number
  readonly pattern?: string
  readonly minimum?: number
  readonly maximum?: number
  readonly exclusiveMinimum?: number
  readonly exclusiveMaximum?: number
  readonly $ref?: string
  readonly $defs?: Readonly<Record<string, JsonSchema>>
}

type JsonType = "string" | "number" | "integer" | "boolean" | "object" | "array" | "null"

/** Keywords the checker judges, and those that only describe (they never change a verdict). */
export const checkedKeywords: ReadonlyArray<string> = [
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "anyOf",
  "allOf",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "$ref",
  "$defs"
]
export const descriptiveKeywords: ReadonlyArray<string> = ["$id", "$schema", "title", "description", "default", "examples", "$comment"]

const typeOf = (value: unknown): JsonType | "undefined" | "other" => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "array"
  switch (typeof value) {
    case "string":
      return "string"
    case "boolean":
      return "boolean"
    case "number":
      return Number.isInteger(value) ? "integer" : "number"
    case "object":
      return "object"
    default:
      return "other"
  }
}

const hasType = (value: unknown, wanted: JsonType) => {
  const actual = typeOf(value)
  return actual === wanted || (wanted === "number" && actual === "integer")
}

const patterns = new Map<string, RegExp>()
const regExp = (source: string) => {
  let found = patterns.get(source)
  if (found === undefined) patterns.set(source, (found = new RegExp(source, "u")))
  return found
}

/** Where and why `value` fails `schema`, or undefined when it passes. */
export const firstFailure = (schema: JsonSchema, value: unknown, root: JsonSchema = schema, at = ""): string | undefined => {
  const fail = (why: string) => `${at === "" ? "the answer" : at} ${why}`
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace(/^#\/\$defs\//, "")
    const target = root.$defs?.[name]
    if (target === undefined) return fail(`refers to an unknown schema ${schema.$ref}`)
    return firstFailure(target, value, root, at)
  }
  if (schema.type !== undefined) {
    const types = typeof schema.type === "string" ? [schema.type] : schema.type
    if (!types.some((type) => hasType(value, type))) return fail(`must be ${types.join(" or ")}`)
  }
  if (schema.enum !== undefined && !schema.enum.some((option) => option === value)) return fail("is not one of the allowed values")
  if ("const" in schema && schema.const !== value) return fail("is not the expected value")
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return fail(`must have at least ${schema.minLength} characters`)
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return fail(`must have at most ${schema.maxLength} characters`)
    if (schema.pattern !== undefined && !regExp(schema.pattern).test(value)) return fail("does not have the expected form")
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return fail(`must be at least ${schema.minimum}`)
    if (schema.maximum !== undefined && value > schema.maximum) return fail(`must be at most ${schema.maximum}`)
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return fail(`must be above ${schema.exclusiveMinimum}`)
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return fail(`must be below ${schema.exclusiveMaximum}`)
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return fail(`must have at least ${schema.minItems} items`)
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return fail(`must have at most ${schema.maxItems} items`)
    const prefix = schema.prefixItems ?? []
    for (let index = 0; index < value.length; index++) {
      const item = index < prefix.length ? prefix[index] : schema.items
      if (item === false) return fail(`must have at most ${prefix.length} items`)
      if (item === undefined) continue
      const failure = firstFailure(item, value[index], root, `${at}[${index}]`)
      if (failure !== undefined) return failure
    }
  }
  if (typeOf(value) === "object") {
    const record = value as Readonly<Record<string, unknown>>
    for (const key of schema.required ?? []) {
      if (!Object.hasOwn(record, key)) return fail(`lacks ${key}`)
    }
    for (const [key, property] of Object.entries(record)) {
      const known = schema.properties !== undefined && Object.hasOwn(schema.properties, key)
      const rule = known ? schema.properties?.[key] : schema.additionalProperties
      if (rule === false) return fail(`has an unexpected field ${key}`)
      if (rule === undefined || rule === true) continue
      const failure = firstFailure(rule, property, root, at === "" ? key : `${at}.${key}`)
      if (failure !== undefined) return failure
    }
  }
  if (schema.allOf !== undefined) {
    for (const part of schema.allOf) {
      const failure = firstFailure(part, value, root, at)
      if (failure !== undefined) return failure
    }
  }
  if (schema.anyOf !== undefined && !schema.anyOf.some((option) => firstFailure(option, value, root, at) === undefined)) {
    return fail("matches none of its allowed forms")
  }
  return undefined
}

/** The keywords in `schema` (at any depth) that the checker does not know. */
export const unknownKeywords = (schema: unknown): ReadonlyArray<string> => {
  if (typeof schema !== "object" || schema === null) return []
  if (Array.isArray(schema)) return schema.flatMap(unknownKeywords)
  const found: Array<string> = []
  for (const [key, value] of Object.entries(schema)) {
    if (!checkedKeywords.includes(key) && !descriptiveKeywords.includes(key)) found.push(key)
    if (key === "properties" || key === "$defs") found.push(...Object.values(value as object).flatMap(unknownKeywords))
    else if (key === "enum" || key === "const" || key === "required" || key === "default" || key === "examples") continue
    else found.push(...unknownKeywords(value))
  }
  return found
}
