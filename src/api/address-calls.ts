import { Effect, Schema } from "effect"
import { type AddressHit, type AddressKind, type AnyAddress, CexAddressInput, CoreTeamAddressInput, GeneratedAddressInput } from "../../contract/addresses.ts"
import type { CallAs } from "./client.ts"

/**
 * The directories' calls through the effect client; src/api/addresses.ts loads this module on
 * first use, so the first screen does not wait for effect (docs/architecture.md, "First screen").
 */
/** What an address form sends: its fields by name (a rank as a number). */
export type AddressInput = Record<string, string | number>

const api = () => import("./client.ts")

/** The form's values checked against the directory's own input schema before they are sent. */
const checked = <A>(schema: Schema.Decoder<A>, input: AddressInput) =>
  Schema.decodeUnknownEffect(schema)(input, { errors: "all" }).pipe(Effect.mapError((error) => ({ status: 400, message: error.message })))

export const saveAddress = async (
  kind: AddressKind,
  target: { readonly id: string; readonly version: number } | null,
  input: AddressInput,
  as?: CallAs
): Promise<AnyAddress> => {
  const { callApi } = await api()
  const params = { id: target?.id ?? "" }
  const version = target?.version ?? 0
  return callApi((client): Effect.Effect<{ readonly data: { readonly address: AnyAddress } }, unknown> => {
    switch (kind) {
      case "generated":
        return Effect.flatMap(checked(GeneratedAddressInput, input), (payload) =>
          target === null ? client.generatedAddresses.create({ payload }) : client.generatedAddresses.update({ params, payload: { ...payload, version } })
        )
      case "cex":
        return Effect.flatMap(checked(CexAddressInput, input), (payload) =>
          target === null ? client.cexAddresses.create({ payload }) : client.cexAddresses.update({ params, payload: { ...payload, version } })
        )
      case "core-team":
        return Effect.flatMap(checked(CoreTeamAddressInput, input), (payload) =>
          target === null ? client.coreTeamAddresses.create({ payload }) : client.coreTeamAddresses.update({ params, payload: { ...payload, version } })
        )
    }
  }, as).then((answer) => answer.data.address)
}

export const deleteAddress = async (kind: AddressKind, id: string, version: number, as?: CallAs): Promise<void> => {
  const { callApi } = await api()
  const options = { params: { id }, query: { version } }
  await callApi((client): Effect.Effect<unknown, unknown> => {
    switch (kind) {
      case "generated":
        return client.generatedAddresses.remove(options)
      case "cex":
        return client.cexAddresses.remove(options)
      case "core-team":
        return client.coreTeamAddresses.remove(options)
    }
  }, as)
}

export const findAddresses = async (q: string): Promise<ReadonlyArray<AddressHit>> => {
  const { callApi } = await api()
  const answer = await callApi((client) => client.addressSearch.find({ query: { q } }))
  return answer.data.hits
}
