/**
 * The words a person sees, written out here from docs/product-spec.md (its quoted texts are
 * exact) and the screens' own labels, so that a changed wording in the product fails a test.
 * Tests take texts from here, never from `src/`, `machines/` or `contract/`.
 */

export const blogMessages = {
  titleRequired: "Title is required",
  contentRequired: "Content is required",
  scheduleRequired: "Choose the date and time to publish a scheduled post",
  stale: "This post was changed by someone else since you read it.",
  notFound: "This post no longer exists. Reload the list.",
  readOnly: "Moderators can read posts but not change them.",
  exportNeedsSignIn: "Sign in to export posts."
} as const

/** The public's reads (docs/api.md, "Public reads"). */
export const publicReadTexts = {
  tooMany: "Too many requests from your address. Try again in 1 minute.",
  busy: "The site is busy. Try again in a moment.",
  tooDeep: (pages: number, limit: number) => `must be at most ${pages} with ${limit} a page: the newest 1,000 are listed; search to find older ones`
} as const

export const addressMessages = {
  stale: "This address was changed by someone else since you read it.",
  notFound: "This address no longer exists. Reload the list.",
  duplicate: (identifier: string) => `An address with the identifier "${identifier}" already exists in this directory.`,
  readOnly: "Moderators can view addresses but not change them."
} as const

export const uploadMessages = {
  notAnImage: "Please select a valid image file",
  tooLarge: "File size must be less than 5MB",
  missingFile: "Choose an image to upload",
  badType: "type must be one of blog, events, listings",
  readOnly: "Your role can't upload images",
  busy: "The server is busy with other uploads. Try again in a few seconds.",
  failed: "Upload failed",
  unknown: "Unknown error"
} as const

export const authErrors = {
  sendRefused: "Failed to send OTP. Please check your email and try again.",
  sendThrew: "An error occurred while requesting OTP.",
  verifyRefused: "Invalid OTP. Please check your email and try again.",
  verifyThrew: "An error occurred during login."
} as const

export const addressModalErrors = {
  create: "Failed to create address",
  update: "Failed to update address",
  remove: "Failed to delete address"
} as const

export const addressTexts = {
  add: "Add Address",
  searchPlaceholder: "Search identifier, name, category…",
  searchLabel: "Search addresses",
  empty: "No addresses found",
  loading: "Loading addresses...",
  loadFailed: "Failed to fetch addresses",
  view: "View",
  edit: "Edit",
  delete: "Delete",
  cancel: "Cancel",
  close: "Close",
  save: "Save",
  saving: "Saving...",
  deleting: "Deleting...",
  confirmDelete: "Are you sure you want to delete this address? This action cannot be undone.",
  addTitle: "Add Address",
  editTitle: "Edit Address",
  viewTitle: "Address Details",
  deleteTitle: "Delete Address",
  find: "Find address…",
  findPlaceholder: "Type an identifier or a name…",
  findEmpty: "No matching addresses",
  keyboardHint: "j/k or ↑/↓ move · Enter view · e edit · Delete remove"
} as const

export const signInTexts = {
  title: "Admin Console",
  intro: "Sign in with a one-time code sent to your e-mail.",
  email: "Email",
  role: "Role",
  send: "Send OTP",
  sending: "Sending OTP...",
  codeTitle: "Enter OTP Code",
  codeSent: (email: string) => `We sent a 6-digit code to ${email}.`,
  codeLabel: "OTP code",
  codePlaceholder: "Enter 6-digit code",
  verify: "Verify & Login",
  verifying: "Verifying...",
  differentEmail: "Use different email",
  resend: "Send a new code",
  resendIn: (seconds: number) => `Send a new code in ${seconds} s`,
  resending: "Sending a new code..."
} as const

/** What the shell says while the server can't be reached (docs/console.md, "Offline"). */
export const linkTexts = {
  offline: "Offline: the server can't be reached until the link is back. You stay signed in.",
  unreachable: "The server can't be reached. You stay signed in; the console keeps trying."
} as const

/** What an open record's dialog or form says of a colleague's change (docs/console.md, "Open records"). */
export const openRecordTexts = {
  gone: (noun: string) => `Someone else deleted this ${noun} since you opened it.`,
  changedWhileEditing: (noun: string) =>
    `Someone else changed this ${noun} since you opened it: saving would be refused. Cancel and open it again to start from their version.`,
  changed: (noun: string) => `Someone else changed this ${noun} since you opened it: it shows as it is now.`
} as const

export const listTexts = {
  previous: "Previous",
  next: "Next",
  page: (page: number, pages: number) => `Page ${page} of ${pages}`,
  retry: "Retry",
  /** A list shown with no link, its rows the ones this browser keeps, read at a local minute. */
  keptOffline: /^Offline: showing what this browser keeps, as read at \d{4}-\d{2}-\d{2} \d{2}:\d{2}\.$/,
  exportCsv: "Export CSV",
  exporting: "Exporting…",
  exportFailed: "Could not export",
  actions: "Actions",
  sortBy: "Sort by",
  sortOrder: (column: string, order: "asc" | "desc") => `${column}, ${order === "asc" ? "ascending" : "descending"}`,
  /** A row whose change waits for the server (docs/architecture.md, "The browser's store"). */
  waiting: "Saving…"
} as const

export const blogTexts = {
  title: "Blog Management",
  add: "Add New Post",
  empty: "No blog posts found",
  loading: "Loading posts...",
  loadFailed: "Failed to fetch posts",
  retry: "Retry",
  searchLabel: "Search posts",
  searchPlaceholder: "Search titles, excerpts, tags…",
  statusFilter: "Status",
  allStatuses: "All statuses",
  edit: "Edit",
  delete: "Delete",
  cancel: "Cancel",
  save: "Save",
  saving: "Saving...",
  deleting: "Deleting...",
  confirmDelete: "Are you sure you want to delete this post?",
  deleteTitle: "Delete post",
  deleteFailed: "Failed to delete post",
  createTitle: "Create New Post",
  editTitle: "Edit Post",
  saved: "Saved",
  scheduledFor: (date: string) => `Scheduled for ${date}`,
  notPublished: "Not published",
  views: (n: number) => `${n} ${n === 1 ? "view" : "views"}`,
  by: (name: string) => `by ${name}`,
  uncategorized: "Uncategorized",
  tabs: {
    content: "Content",
    settings: "Settings",
    categories: "Categories",
    seo: "SEO",
    preview: "Preview"
  },
  postTitle: "Title",
  body: "Content",
  excerpt: "Excerpt",
  status: "Status",
  statuses: {
    draft: "Draft",
    published: "Published",
    scheduled: "Scheduled",
    archived: "Archived"
  },
  scheduleDate: "Publish at",
  scheduleHint: "The post goes live by itself at this time (your time zone).",
  authorUsername: "Author username",
  authorUsernameHint: "Leave empty to sign the post with your own name.",
  authorCredentials: "Author credentials",
  categories: "Categories",
  noCategories: "No categories yet. Add the first one below.",
  newCategory: "New category",
  addCategory: "Add category",
  flagsTitle: "Special flags",
  flags: {
    isSponsored: "Sponsored",
    isFeatured: "Featured",
    isEditorsChoice: "Editor's choice",
    isTrending: "Trending",
    isResearch: "Research",
    isReview: "Review"
  },
  sponsorTitle: "Sponsored content",
  sponsorName: "Sponsor name",
  sponsorLogo: "Sponsor logo URL",
  sponsorUrl: "Sponsor website",
  tags: "Tags",
  tagsHint: "Press Enter or comma to add a tag.",
  seoTitle: "SEO title",
  seoDescription: "SEO description",
  seoKeywords: "Keywords",
  keywordsHint: "Press Enter or comma to add a keyword.",
  previewEmpty: "Nothing to preview yet.",
  leaveTitle: "Leave without saving?",
  leaveText: "You have unsaved changes. They will be lost if you leave now.",
  leave: "Leave",
  stay: "Keep editing",
  toolbar: "Formatting",
  linkTitle: "Add link",
  linkUrl: "Link address",
  linkHint: "Use an address starting with https://, http:// or mailto:",
  linkApply: "Apply",
  keyboardHint: "j/k or ↑/↓ move · Enter edit · Delete remove · n new post"
} as const

/** The featured-image field. */
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
  dismiss: "Dismiss"
} as const

/** The tag and keyword inputs: the spec's "Add" button beside them. */
export const chipTexts = {
  add: "Add",
  remove: (what: string) => `Remove ${what}`
} as const

/** The error screen's heading, the spec's words. */
export const UNEXPECTED_ERROR = "Unexpected Application Error!"

/** "File size must be less than 5MB": the largest upload, in bytes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024

/**
 * The sidebar, top to bottom (docs/product-spec.md §2, "Admin shell"): each entry's path, its
 * label and the heading of the screen it opens.
 */
export const sidebarEntries = [
  { path: "/", label: "Dashboard", title: "Dashboard" },
  { path: "/blog", label: "Blog Management", title: "Blog Management" },
  { path: "/generated-addresses", label: "Generated Addresses", title: "Generated Addresses" },
  { path: "/cex-addresses", label: "CEX Addresses", title: "CEX Addresses" },
  { path: "/core-team-addresses", label: "Core Team Addresses", title: "Core Team Addresses" },
  { path: "/communities", label: "Communities", title: "Community Management" },
  { path: "/influencers", label: "Influencers", title: "Influencer Management" },
  { path: "/businesses", label: "Business Listings", title: "Business Listings" },
  { path: "/startups", label: "Startup Listings", title: "Startup Listings" },
  { path: "/projects", label: "Project Listings", title: "Project Listings" },
  { path: "/events", label: "Events", title: "Events Management" },
  { path: "/hackathons", label: "Hackathons", title: "Hackathons Management" },
  { path: "/core-team", label: "Core Team Contacts", title: "Core Team Contacts" },
  { path: "/advertising-inquiries", label: "Advertising Inquiries", title: "Advertising Inquiries" },
  { path: "/scam-reports", label: "Scam Reports", title: "Scam Reports Management" },
  { path: "/settings", label: "Settings", title: "Settings" }
] as const

/** The three directories (docs/product-spec.md §2, "Address screens"): where each is and the columns its table shows. */
export const directoryScreens = [
  { kind: "generated", title: "Generated Addresses", path: "/generated-addresses", columns: ["Identifier", "Name", "Category", "Rank", "Created"] },
  { kind: "cex", title: "CEX Addresses", path: "/cex-addresses", columns: ["Identifier", "Name", "Category", "Buy", "Created"] },
  { kind: "core-team", title: "Core Team Addresses", path: "/core-team-addresses", columns: ["Identifier", "Name", "Role", "Created"] }
] as const

/** docs/product-spec.md §2 "Community and Influencer management", §4 and §5; the toast and palette wording are ours. */
export const listingTexts = {
  titles: { community: "Community Management", influencer: "Influencer Management" },
  loading: "Loading listings...",
  empty: "No listings found",
  counts: ["Total", "Pending", "Approved", "Rejected"],
  approve: "Approve",
  reject: "Reject",
  setPending: "Set Pending",
  confirmDelete: "Are you sure you want to delete this listing?",
  add: { community: "Add Community", influencer: "Add Influencer" },
  undo: "Undo (z)",
  saveFailed: "Failed to save listing"
} as const
