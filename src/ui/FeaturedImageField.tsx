import { CopyIcon, ExternalLinkIcon, TrashIcon, UploadIcon } from "@radix-ui/react-icons"
import { Badge, Button, Callout, Flex, Progress, Text, TextField } from "@radix-ui/themes"
import { useSelector } from "@xstate/react"
import { useMachine } from "../lib/use-machine.ts"
import { type Ref, useEffect, useEffectEvent, useId, useRef, useState } from "react"
import { fromPromise } from "xstate"
import { acceptedImageTypes, type UploadType } from "../../contract/upload-rules.ts"
import { type UploadEvent, uploadMachine } from "../../machines/upload.ts"
import type { UploadedImage } from "../../contract/uploads.ts"
import { type FieldView, fieldView } from "../lib/form/words.ts"
import { useStableCallback } from "../lib/use-stable.ts"

/** The field's words. */
export const imageFieldTexts = {
  label: "Featured image",
  urlPlaceholder: "https://… or upload a file",
  upload: "Upload",
  uploading: "Uploading…",
  open: "Open",
  copy: "Copy URL",
  copied: "Copied!",
  remove: "Remove",
  hint: "JPG, PNG, GIF or WebP, up to 5 MB.",
  preview: "Featured image preview",
  progress: "Upload progress",
  cancel: "Cancel upload",
  dismiss: "Dismiss",
  broken: "The image at this address cannot be loaded. Check the address, or upload the file."
} as const

const t = imageFieldTexts
const BADGE_LIMIT = 50
const COPIED_MS = 2000

/** How long typing pauses before the preview asks for the image: one request per address, not per keystroke. */
export const PREVIEW_PAUSE_MS = 500

/**
 * The address the preview may load: a complete http(s) URL (a host with a dot, or localhost) or
 * an uploaded file's path; anything else (half an address, `javascript:`) shows no preview.
 */
export const previewable = (value: string): string | null => {
  const text = value.trim()
  if (/^\/uploads\/[^\s]+$/u.test(text)) return text
  if (!/^https?:\/\//iu.test(text)) return null
  try {
    const url = new URL(text)
    return url.hostname.includes(".") || url.hostname === "localhost" ? url.href : null
  } catch {
    return null
  }
}

/** docs/product-spec.md §2: the URL badge shows the first 50 characters. */
export const badgeText = (url: string) => (url.length > BADGE_LIMIT ? `${url.slice(0, BADGE_LIMIT)}…` : url)

/**
 * The reusable featured-image field (docs/product-spec.md §2): a URL input and Upload, a preview with
 * Open, Copy URL and Remove, the URL badge, the accepted types and the upload's progress.
 */
/**
 * Sends a file and reports its bytes: the feature passes the API's upload (src/api/uploads.ts),
 * so this shared field never imports the API (docs/architecture.md, "Layers").
 */
export type ImageUpload = (file: Blob, type: UploadType, onProgress: (loaded: number, total: number) => void, signal: AbortSignal) => Promise<UploadedImage>

export const FeaturedImageField = ({
  value,
  onChange,
  upload: send,
  type = "blog",
  label = t.label,
  view: given,
  inputRef
}: {
  readonly value: string
  readonly onChange: (url: string) => void
  readonly upload: ImageUpload
  readonly type?: UploadType
  readonly label?: string
  /** The field as its form shows it (src/lib/form/words.ts): label, hint and problem. */
  readonly view?: FieldView
  /** Where the form pattern moves the focus to when the address is refused. */
  readonly inputRef?: Ref<HTMLInputElement>
}) => {
  const ownId = useId()
  const view = given ?? fieldView(`${ownId}-url`, label, undefined)
  const id = view.id
  const fileInput = useRef<HTMLInputElement>(null)
  // The upload reports its bytes to the machine that started it.
  const report = useRef<(event: UploadEvent) => void>(() => undefined)
  const sendFile = useStableCallback(send)
  const upload = useMachine(
    () =>
      uploadMachine.provide({
        actors: {
          upload: fromPromise(({ input, signal }) =>
            sendFile(input.file as File, input.type, (loaded, total) => report.current({ type: "PROGRESS", loaded, total }), signal)
          )
        }
      }),
    { input: { type } }
  )
  report.current = (event) => upload.send(event)
  const uploading = useSelector(upload, (snapshot) => snapshot.matches("uploading"))
  const url = useSelector(upload, (snapshot) => snapshot.context.url)
  const done = useSelector(upload, (snapshot) => snapshot.matches("done"))
  const progress = useSelector(upload, (snapshot) => snapshot.context.progress)
  const failure = useSelector(upload, (snapshot) => (snapshot.matches("failed") ? snapshot.context.error : null))
  const uploaded = useEffectEvent((href: string) => onChange(href))
  useEffect(() => {
    // Stored absolute, so the public site shows it from wherever it runs.
    if (done && url !== null) uploaded(new URL(url, location.origin).href)
  }, [done, url])

  // The preview follows the address after a pause in typing, and only a complete one.
  const [preview, setPreview] = useState(() => previewable(value))
  const [broken, setBroken] = useState(false)
  useEffect(() => {
    const next = previewable(value)
    if (next === preview) return
    const timer = setTimeout(
      () => {
        setPreview(next)
        setBroken(false)
      },
      next === null ? 0 : PREVIEW_PAUSE_MS
    )
    return () => clearTimeout(timer)
  }, [value, preview])

  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPIED_MS)
    return () => clearTimeout(timer)
  }, [copied])
  const copy = async () => {
    const absolute = new URL(value, location.origin).href
    await navigator.clipboard.writeText(absolute).catch(() => undefined)
    setCopied(true)
  }

  return (
    <Flex direction="column" gap="2">
      <Text as="label" htmlFor={id} size="2" weight="medium">
        {view.label}
        {view.required && (
          <Text color="red" aria-hidden="true">
            {" "}
            *
          </Text>
        )}
      </Text>
      <Flex gap="2">
        <TextField.Root
          {...view.control}
          ref={inputRef}
          style={{ flexGrow: 1 }}
          placeholder={t.urlPlaceholder}
          value={value}
          aria-describedby={[view.control["aria-describedby"], `${id}-hint`].filter((part) => part !== undefined).join(" ")}
          onChange={(event) => onChange(event.target.value)}
        />
        <input
          ref={fileInput}
          type="file"
          accept={acceptedImageTypes.join(",")}
          hidden
          aria-label={`${label}: ${t.upload}`}
          data-testid="featured-image-file"
          onChange={(event) => {
            const file = event.target.files?.[0]
            if (file !== undefined) upload.send({ type: "PICK", file })
            event.target.value = ""
          }}
        />
        <Button type="button" variant="soft" disabled={uploading} onClick={() => fileInput.current?.click()}>
          <UploadIcon /> {uploading ? t.uploading : t.upload}
        </Button>
      </Flex>
      {view.error !== undefined && (
        <Text id={`${id}-error`} size="1" color="red" weight="medium">
          {view.error}
        </Text>
      )}
      <Text id={`${id}-hint`} size="1" color="gray">
        {t.hint}
      </Text>
      {uploading && (
        <Flex align="center" gap="2">
          <Progress value={progress} aria-label={t.progress} style={{ flexGrow: 1 }} />
          <Text size="1" color="gray" aria-hidden="true">
            {progress}%
          </Text>
          <Button size="1" variant="soft" color="gray" type="button" onClick={() => upload.send({ type: "CANCEL" })}>
            {t.cancel}
          </Button>
        </Flex>
      )}
      {failure !== null && (
        <Callout.Root color="red" role="alert" size="1">
          <Flex align="center" justify="between" gap="2">
            <Callout.Text>{failure}</Callout.Text>
            <Button size="1" variant="ghost" color="red" type="button" onClick={() => upload.send({ type: "RESET" })}>
              {t.dismiss}
            </Button>
          </Flex>
        </Callout.Root>
      )}
      {preview !== null && (
        <Flex direction="column" gap="2" className="featured-image-preview">
          {broken ? (
            <Text size="2" color="red" role="status">
              {t.broken}
            </Text>
          ) : (
            <img src={preview} alt={t.preview} onError={() => setBroken(true)} />
          )}
          <Flex gap="2" wrap="wrap" align="center">
            <Badge color="gray" title={value}>
              {badgeText(value)}
            </Badge>
            <Button size="1" variant="soft" asChild>
              <a href={preview} target="_blank" rel="noopener noreferrer">
                <ExternalLinkIcon /> {t.open}
              </a>
            </Button>
            <Button size="1" variant="soft" type="button" onClick={() => void copy()}>
              <CopyIcon /> <span aria-live="polite">{copied ? t.copied : t.copy}</span>
            </Button>
            <Button
              size="1"
              variant="soft"
              color="red"
              type="button"
              onClick={() => {
                onChange("")
                upload.send({ type: "RESET" })
              }}
            >
              <TrashIcon /> {t.remove}
            </Button>
          </Flex>
        </Flex>
      )}
    </Flex>
  )
}
