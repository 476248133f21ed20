import { Text } from "@radix-ui/themes"
import { type KeyHint, keysHint } from "../../lib/list/declarations.ts"

/** The line under a list, written from the keys it has (src/lib/list/declarations.ts, `keysHint`). */
export const KeysHint = ({ keys, after }: { readonly keys: ReadonlyArray<KeyHint>; readonly after?: string | undefined }) => (
  <Text as="p" size="1" color="gray" mt="3">
    {keysHint(keys)}
    {after}
  </Text>
)
