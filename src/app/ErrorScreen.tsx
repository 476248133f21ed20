import { Box, Code, Heading } from "@radix-ui/themes"
import { Component, type ErrorInfo, type ReactNode } from "react"

export const UNEXPECTED_ERROR = "Unexpected Application Error!"

/** The router-level fallback: "Unexpected Application Error!" and the message. */
export class ErrorBoundary extends Component<{ readonly children: ReactNode }, { readonly error: Error | null }> {
  override state = { error: null as Error | null }

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack)
  }

  override render() {
    if (this.state.error === null) return this.props.children
    return (
      <Box p="6" role="alert">
        <Heading as="h1" size="6" color="red" mb="3">
          {UNEXPECTED_ERROR}
        </Heading>
        <Code size="3">{this.state.error.message}</Code>
      </Box>
    )
  }
}
