/**
 * The spec's twelve industries (§4 "Advertising industry options"), apart from the inquiry's rules:
 * only the inquiries' screen and the server need them, never a first screen's start-up
 * (src/features/advertising/first-page.ts).
 */
export const industries = [
  "Cryptocurrency Exchange",
  "Wallet Services",
  "DeFi Platforms",
  "NFT Marketplaces",
  "Blockchain Development",
  "Mining Equipment",
  "Educational Content",
  "Trading Tools",
  "Financial Services",
  "Gaming",
  "E-commerce",
  "Other"
] as const
