import { Badge, Card, DataList, Flex, Heading, Text } from "@radix-ui/themes"
import { useActor } from "@xstate/react"
import { fromPromise } from "xstate"
import packageJson from "../../../package.json" with { type: "json" }
import { fetchHealth } from "../../api/auth.ts"
import { useTheme } from "../../lib/theme.tsx"
import { Screen } from "../../ui/Screen.tsx"
import { Link } from "wouter"
import { activityDestinations, settingsScreenDestinations } from "../../lib/destinations.ts"

const healthCheck = fromPromise(() => fetchHealth())

const comingSoon = ["Notifications", "Email Alerts", "Auto Save"] as const

const DatabaseStatus = () => {
  const [snapshot] = useActor(healthCheck)
  if (snapshot.status === "active") return <Text color="gray">Checking…</Text>
  if (snapshot.status === "error") return <Badge color="red">Unreachable</Badge>
  const database = snapshot.output?.database
  return database?.status === "connected" ? (
    <Badge color="green">Connected ({database.engine === "pglite" ? "embedded PGlite" : "PostgreSQL"})</Badge>
  ) : (
    <Badge color="red">Disconnected</Badge>
  )
}

/** docs/product-spec.md §2, "Settings", with the database status read from /api/health. */
export const SettingsScreen = () => {
  const { appearance } = useTheme()
  return (
    <Screen title="Settings">
      <Flex direction="column" gap="4" style={{ maxWidth: 720 }}>
        <Card size="3">
          <Heading as="h2" size="4" mb="3">
            Admin Settings
          </Heading>
          <DataList.Root>
            {comingSoon.map((name) => (
              <DataList.Item key={name}>
                <DataList.Label>{name}</DataList.Label>
                <DataList.Value>
                  <Text color="gray">(Coming soon)</Text>
                </DataList.Value>
              </DataList.Item>
            ))}
            <DataList.Item>
              <DataList.Label>Dark Mode</DataList.Label>
              <DataList.Value>
                <Badge color={appearance === "dark" ? "violet" : "gray"}>{appearance === "dark" ? "On" : "Off"}</Badge>
                <Text size="1" color="gray" ml="2">
                  Toggle it from the sidebar
                </Text>
              </DataList.Value>
            </DataList.Item>
          </DataList.Root>
        </Card>
        <Card size="3">
          <Heading as="h2" size="4" mb="3">
            Admin Management
          </Heading>
          <nav aria-label="Admin management">
            <Flex direction="column" gap="2">
              {[...Object.values(settingsScreenDestinations), ...activityDestinations].map((screen) => (
                <Link key={screen.path} href={screen.path} className="settings-link">
                  <screen.icon /> {screen.label}
                </Link>
              ))}
            </Flex>
          </nav>
          <Text as="p" size="1" color="gray" mt="2">
            Admin users and allowed addresses are for super admins; everyone manages their own sessions.
          </Text>
        </Card>
        <Card size="3">
          <Heading as="h2" size="4" mb="3">
            System Information
          </Heading>
          <DataList.Root>
            <DataList.Item>
              <DataList.Label>Panel Version</DataList.Label>
              <DataList.Value>{packageJson.version}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Last Updated</DataList.Label>
              <DataList.Value>{new Date().toLocaleDateString()}</DataList.Value>
            </DataList.Item>
            <DataList.Item>
              <DataList.Label>Database Status</DataList.Label>
              <DataList.Value>
                <DatabaseStatus />
              </DataList.Value>
            </DataList.Item>
          </DataList.Root>
        </Card>
      </Flex>
    </Screen>
  )
}
