import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type SiteSettingsFields, settingsMessages } from "../../contract/site-settings.ts"
import { AdminApi } from "../../contract/api.ts"
import { Conflict } from "../../contract/common.ts"
import { type ChangeEvent, createRecord, updateRecord } from "../platform/record-writes.ts"
import { superAdminOnly } from "../auth/roles.ts"
import { type SettingsRow, SETTINGS_ID, documentOf, settingsTable, readSettings, defaultSettings } from "./repository.ts"

// The site's settings (docs/api.md, "Admin management"): one document, versioned.

const stale = () => new Conflict({ error: settingsMessages.stale })

export const SiteSettingsHandlers = HttpApiBuilder.group(AdminApi, "siteSettings", (handlers) =>
  handlers
    .handle("get", () => Effect.map(readSettings, (settings) => ({ success: true as const, data: { settings } })))
    .handle("update", ({ payload }) =>
      Effect.gen(function* () {
        yield* superAdminOnly
        const { version, ...fields } = payload
        const document = JSON.stringify(fields)
        const changedFrom = (before: SettingsRow | undefined) => {
          const was = { ...defaultSettings, ...(before === undefined ? {} : documentOf(before)) }
          return (Object.keys(fields) as Array<keyof SiteSettingsFields>).filter((key) => JSON.stringify(fields[key]) !== JSON.stringify(was[key]))
        }
        const event = (before: SettingsRow | undefined, after: SettingsRow): ChangeEvent => ({
          action: "settings.update",
          entityId: "site",
          fromState: `v${before?.version ?? 0}`,
          toState: `v${after.version}`,
          details: { changed: changedFrom(before) }
        })
        // The first save creates the one document (version 0 is "never saved"); later ones change it.
        if (version === 0) {
          yield* createRecord<SettingsRow, Conflict>(settingsTable, {
            values: { id: SETTINGS_ID, document },
            unique: { index: "id", taken: stale },
            events: (row) => event(undefined, row)
          })
        } else {
          yield* updateRecord<SettingsRow>(settingsTable, {
            id: SETTINGS_ID,
            expectedVersion: version,
            changes: () => ({ document }),
            events: event
          }).pipe(Effect.catchTag("NotFound", () => Effect.fail(stale())))
        }
        return { success: true as const, data: { settings: yield* readSettings } }
      })
    )
)
