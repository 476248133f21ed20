import { Box, Heading } from "@radix-ui/themes"
import type { ReactNode } from "react"

/** A screen: its title as the page heading, then its content. */
export const Screen = ({ title, children }: { readonly title: string; readonly children?: ReactNode }) => (
  <Box p={{ initial: "3", md: "5" }}>
    <Heading as="h1" size="7" mb="4">
      {title}
    </Heading>
    {children}
  </Box>
)
