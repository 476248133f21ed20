import type { RadixSubset } from "./radix-subset.ts"

/**
 * The part of Radix Themes the console renders; the build drops the rest of its stylesheet
 * (tools/first-screen/radix-subset.ts). Using a new component, colour or breakpoint means adding it here;
 * tests/e2e/styles.test.ts checks the screens against it.
 */
export const radixUse: RadixSubset = {
  colors: ["gray", "slate", "violet", "red", "green", "blue", "orange", "yellow"],
  breakpoints: ["md"],
  responsive: ["rt-r-p", "rt-r-gtc"],
  unusedComponents: [
    "rt-Avatar",
    "rt-BaseMenu",
    "rt-BaseRadio",
    "rt-Blockquote",
    "rt-CheckboxCards",
    "rt-CheckboxGroup",
    "rt-Container",
    "rt-ContextMenu",
    "rt-DropdownMenu",
    "rt-HoverCard",
    "rt-Inset",
    "rt-Popover",
    "rt-Quote",
    "rt-Radio",
    "rt-Section",
    "rt-SegmentedControl",
    "rt-Skeleton",
    "rt-Slider",
    "rt-Switch",
    "rt-TabNav",
    "rt-ThemePanel",
    "rt-Em",
    "rt-Strong"
  ]
}
