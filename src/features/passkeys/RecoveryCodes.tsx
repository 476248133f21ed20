import { Button, Callout, Card, Code, Flex, Grid, Heading, Text } from "@radix-ui/themes"
import { useEffect, useState } from "react"
import { makeRecoveryCodes } from "../../api/passkeys.ts"
import { BannerView } from "../../ui/FieldFrame.tsx"
import { passkeyTexts as t } from "./texts.ts"

/**
 * Recovery codes (docs/console.md, "Passkeys"): how many are left; ten new ones made on request
 * (asked again when unused ones would stop working), shown once with a copy button.
 */
export const RecoveryCodes = ({ left, asked, onMade }: { readonly left: number; readonly asked: number; readonly onMade: () => void }) => {
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [failed, setFailed] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  const make = () => {
    setBusy(true)
    setFailed(null)
    makeRecoveryCodes().then(
      (made) => {
        setCodes(made)
        setConfirming(false)
        setBusy(false)
        setCopied(false)
        onMade()
      },
      (error: unknown) => {
        setFailed(`${t.makeFailed}: ${error instanceof Error ? error.message : String((error as { message?: unknown }).message ?? error)}`)
        setBusy(false)
      }
    )
  }
  const ask = () => (left > 0 ? setConfirming(true) : make())
  useEffect(() => {
    if (asked > 0) document.getElementById("recovery-codes-make")?.focus()
  }, [asked])
  return (
    <Card mb="4">
      <Heading as="h2" size="3" mb="2">
        {t.recoveryTitle}
      </Heading>
      <Text as="p" size="2" mb="3">
        {t.recoveryLeft(left)}
      </Text>
      {codes !== null && (
        <Callout.Root color="orange" role="status" mb="3">
          <Callout.Text>{t.codesShown}</Callout.Text>
          <Grid columns={{ initial: "1", md: "2" }} gap="1" aria-label={t.recoveryTitle} role="list">
            {codes.map((code) => (
              <Code key={code} size="3" role="listitem">
                {code}
              </Code>
            ))}
          </Grid>
          <Flex gap="3">
            <Button type="button" variant="soft" onClick={() => void navigator.clipboard?.writeText(codes.join("\n")).then(() => setCopied(true))}>
              {copied ? t.copied : t.copy}
            </Button>
            <Button type="button" onClick={() => setCodes(null)}>
              {t.savedThem}
            </Button>
          </Flex>
        </Callout.Root>
      )}
      {confirming ? (
        <Flex gap="3" align="center" wrap="wrap">
          <Text size="2" role="alert">
            {t.replaceWarning}
          </Text>
          <Button type="button" color="red" autoFocus disabled={busy} onClick={make}>
            {busy ? t.making : t.replace}
          </Button>
          <Button type="button" variant="soft" disabled={busy} onClick={() => setConfirming(false)}>
            {t.cancel}
          </Button>
        </Flex>
      ) : (
        <Button id="recovery-codes-make" type="button" variant="soft" disabled={busy} onClick={ask}>
          {busy ? t.making : left > 0 ? t.makeNewCodes : t.makeCodes}
        </Button>
      )}
      <BannerView message={failed} />
    </Card>
  )
}
