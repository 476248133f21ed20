import { randomUUID } from "node:crypto"
import type { SqlClient } from "effect/sql/SqlClient"
import { Effect, type Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { addressMessages, type AddressKind } from "../../contract/addresses.ts"
import { AdminApi } from "../../contract/api.ts"
import { Conflict, type Pagination } from "../../contract/common.ts"
import { requireEditor as requireEditorOf } from "../auth/roles.ts"
import { type ChangeEvent, createRecord, removeRecord, takenBy, updateRecord } from "../platform/record-writes.ts"
import { encodableAs } from "../platform/encodable.ts"
import { type AddressColumns, type AddressRow, kinds } from "./kinds.ts"
import { csvResponse, wantsCsv } from "../platform/lists.ts"
import { addressTable, exportAddresses, identifierTaken, listAddresses, type ListQuery, ofKind, searchAllAddresses } from "./repository.ts"

const requireEditor = requireEditorOf(addressMessages.readOnly)

const logChange = (action: "create" | "update" | "delete", kind: AddressKind, row: AddressRow, from: AddressRow | undefined): ChangeEvent => ({
  action: `address.${action}`,
  entityId: row.id,
  fromState: from === undefined ? null : `v${from.version}`,
  toState: action === "delete" ? null : `v${row.version}`,
  details: { kind: kind, identifier: row.identifier }
})

/** The four handlers of one directory; `fromRow` and `toColumns` are its field mapping. */
const directory = <A, I>(
  kind: AddressKind,
  {
    fromRow,
    toColumns,
    exportFields,
    schema
  }: {
    readonly fromRow: (row: AddressRow) => A
    readonly toColumns: (input: I) => AddressColumns
    readonly exportFields: ReadonlyArray<keyof A & string>
    readonly schema: Schema.Codec<A, unknown, never, never>
  }
) => {
  const answerable = encodableAs(schema)
  // The rows are typed by `fromRow`; re-checking each field of every row against the schema
  // on the way out doubled the cost of a page, so the list is written as JSON directly.
  const page = (query: ListQuery) =>
    Effect.map(listAddresses(kind, query), ({ rows, pagination }) =>
      HttpServerResponse.jsonUnsafe({ success: true, data: { addresses: rows.map(fromRow), pagination } } satisfies {
        readonly success: true
        readonly data: { readonly addresses: ReadonlyArray<A>; readonly pagination: Pagination }
      })
    )
  return {
    list: ({ query }: { readonly query: ListQuery & { readonly format?: "json" | "csv" } }) =>
      Effect.flatMap(wantsCsv(query.format), (csv) =>
        csv ? csvResponse({ name: `${kind}-addresses`, fields: exportFields, record: fromRow, rows: exportAddresses(kind, query) }) : page(query)
      ),
    create: ({ payload }: { readonly payload: I }) =>
      Effect.gen(function* () {
        yield* requireEditor
        const values = toColumns(payload)
        const { row } = yield* createRecord<AddressRow, Conflict>(addressTable, {
          values: { id: randomUUID(), kind, ...values },
          unique: { index: "kind, lower(identifier)", taken: () => takenBy("identifier", addressMessages.duplicate(values.identifier)) },
          check: (created) => answerable(fromRow(created)),
          events: (created) => logChange("create", kind, created, undefined)
        })
        return { success: true as const, data: { address: fromRow(row) } }
      }),
    update: ({ params, payload }: { readonly params: { readonly id: string }; readonly payload: I & { readonly version: number } }) =>
      Effect.gen(function* () {
        yield* requireEditor
        const values = toColumns(payload)
        const { after } = yield* updateRecord<AddressRow, Conflict, SqlClient>(addressTable, {
          id: params.id,
          expectedVersion: payload.version,
          scope: ofKind(kind),
          refuse: () =>
            Effect.flatMap(identifierTaken(kind, values.identifier, params.id), (taken) =>
              taken ? Effect.fail(takenBy("identifier", addressMessages.duplicate(values.identifier))) : Effect.void
            ),
          changes: () => values,
          check: (changed) => answerable(fromRow(changed)),
          events: (before, changed) => logChange("update", kind, changed, before)
        })
        return { success: true as const, data: { address: fromRow(after) } }
      }),
    remove: ({ params, query }: { readonly params: { readonly id: string }; readonly query: { readonly version: number } }) =>
      Effect.gen(function* () {
        yield* requireEditor
        yield* removeRecord<AddressRow>(addressTable, {
          id: params.id,
          expectedVersion: query.version,
          scope: ofKind(kind),
          events: (before) => logChange("delete", kind, before, before)
        })
        return { success: true as const }
      })
  }
}

const generated = directory("generated", kinds.generated)
const cex = directory("cex", kinds.cex)
const coreTeam = directory("core-team", kinds["core-team"])

export const GeneratedAddressHandlers = HttpApiBuilder.group(AdminApi, "generatedAddresses", (handlers) =>
  handlers.handle("list", generated.list).handle("create", generated.create).handle("update", generated.update).handle("remove", generated.remove)
)

export const CexAddressHandlers = HttpApiBuilder.group(AdminApi, "cexAddresses", (handlers) =>
  handlers.handle("list", cex.list).handle("create", cex.create).handle("update", cex.update).handle("remove", cex.remove)
)

export const CoreTeamAddressHandlers = HttpApiBuilder.group(AdminApi, "coreTeamAddresses", (handlers) =>
  handlers.handle("list", coreTeam.list).handle("create", coreTeam.create).handle("update", coreTeam.update).handle("remove", coreTeam.remove)
)

export const AddressSearchHandlers = HttpApiBuilder.group(AdminApi, "addressSearch", (handlers) =>
  handlers.handle("find", ({ query }) => Effect.map(searchAllAddresses(query.q), (hits) => ({ success: true as const, data: { hits } })))
)
