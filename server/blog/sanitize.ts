import sanitizeHtml from "sanitize-html"

const alignable = ["p", "h1", "h2", "h3", "li", "blockquote"]

/**
 * The allow-list a post body is stored through: the editor's formatting and nothing else.
 * Scripts, event handlers, `javascript:` and other schemes, and every style but text
 * alignment are removed; links keep http(s) and mailto only and open safely.
 */
const options: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "strong", "b", "em", "i", "u", "s", "code", "pre", "h1", "h2", "h3", "ul", "ol", "li", "blockquote", "a", "span"],
  allowedAttributes: {
    a: ["href", "title", "target", "rel"],
    ...Object.fromEntries(alignable.map((tag) => [tag, ["style"]]))
  },
  allowedStyles: Object.fromEntries(alignable.map((tag) => [tag, { "text-align": [/^(left|center|right|justify)$/] }])),
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    // Every link is rel="noopener noreferrer", whatever was sent; the only target kept is _blank.
    a: (tagName, { target, rel: _rel, ...attribs }) => ({
      tagName,
      attribs: {
        ...attribs,
        ...(target?.toLowerCase() === "_blank" ? { target: "_blank" } : {}),
        rel: "noopener noreferrer"
      }
    })
  }
}

export const sanitizePostHtml = (html: string): string => sanitizeHtml(html, options)
