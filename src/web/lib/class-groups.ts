// Which Tailwind utilities override one another, for `cn()` (lib/cn.ts), as tailwind-merge decides
// it for the utilities this app writes (docs/decisions/042-landing-under-90-kb.md). A prefix is its
// group whatever the value, except where groups share a prefix (`text-sm` is a size, `text-left` an
// alignment, `text-primary` a colour). lib/cn.test.ts holds it to tailwind-merge on every pair of
// class names in src/web: a utility the app starts using that this table gets wrong fails there.

const ARBITRARY = /^\[(?:(\w[\w-]*):)?(.+)\]$/;
const VARIABLE = /^\((?:(\w[\w-]*):)?(.+)\)$/;
const SIZE = /^(\d+(\.\d+)?)?(xs|sm|md|lg|xl)$/;

/** The label of `[label:value]` or `(label:value)`, "" for none; undefined when `v` is not arbitrary. */
function label(v: string): string | undefined {
  const match = ARBITRARY.exec(v) ?? VARIABLE.exec(v);
  return match ? (match[1] ?? "") : undefined;
}

/** A number, `[3px]`, `[length:…]` or `(length:…)`: a width or a size rather than a colour. */
function isLength(v: string): boolean {
  if (v !== "" && !Number.isNaN(Number(v))) return true;
  const match = ARBITRARY.exec(v);
  if (match && !match[1]) return /\d(px|r?em|%|v[hw])|^\d|calc\(/.test(match[2] ?? "") && !/^(rgb|hsl|oklch|color)/.test(match[2] ?? "");
  return label(v) === "length";
}

/** A test of membership in a space-separated list, split once. */
const oneOf = (list: string) => {
  const values = new Set(list.split(" "));
  return (v: string) => values.has(v);
};
const isLineStyle = oneOf("solid dashed dotted double hidden none");
const isWeight = oneOf("thin extralight light normal medium semibold bold extrabold black");
const isAlignment = oneOf("left center right justify start end");
const isTextWrap = oneOf("wrap nowrap balance pretty");
const isShadowWord = oneOf("none inner");
const isListPosition = oneOf("inside outside");
const isObjectFit = oneOf("contain cover fill none scale-down");
const isAnimation = oneOf("none spin ping pulse bounce");

/** Prefixes that share their values between groups: the group is decided by the value. */
const BY_VALUE: Record<string, (v: string) => string | undefined> = {
  text: (v) =>
    v === "base" || SIZE.test(v) || (label(v) !== undefined && isLength(v)) ? "font-size"
    : isAlignment(v) ? "text-alignment"
    : isTextWrap(v) ? "text-wrap"
    : "text-color",
  font: (v) => (isWeight(v) || (label(v) ?? "family-name") !== "family-name" ? "font-weight" : "font-family"),
  border: (v) => (v === "" || isLength(v) ? "border-w" : isLineStyle(v) ? "border-style" : "border-color"),
  ring: (v) => (v === "" || isLength(v) ? "ring-w" : "ring-color"),
  "ring-offset": (v) => (isLength(v) ? "ring-offset-w" : "ring-offset-color"),
  outline: (v) => (isLineStyle(v) ? "outline-style" : v === "" || isLength(v) ? "outline-w" : "outline-color"),
  shadow: (v) => (v === "" || SIZE.test(v) || isShadowWord(v) ? "shadow" : "shadow-color"),
  flex: (v) => (/^(row|col)(-reverse)?$/.test(v) ? "flex-direction" : /wrap/.test(v) ? "flex-wrap" : "flex"),
  content: (v) => (label(v) === undefined ? "align-content" : "content"),
  list: (v) => (isListPosition(v) ? "list-style-position" : "list-style-type"),
  object: (v) => (isObjectFit(v) ? "object-fit" : "object-position"),
  // Only Tailwind's own animations: tailwind-merge leaves the app's (`animate-fade-in`) alone.
  animate: (v) => (isAnimation(v) || label(v) !== undefined ? "animate" : undefined),
};
const SIDES = ["x", "y", "t", "r", "b", "l"];
for (const side of SIDES) BY_VALUE[`border-${side}`] = (v) => (v === "" || isLength(v) ? `border-w-${side}` : `border-color-${side}`);

const withSides = (prefix: string, sides = SIDES) => sides.map((side) => prefix + side);
const CORNERS = withSides("rounded-", ["t", "r", "b", "l", "tl", "tr", "br", "bl"]);

/** Prefixes whose every value is in one group, named after the prefix unless renamed here. */
const PREFIX_GROUPS: Record<string, string> = {
  col: "col-start-end",
  "col-span": "col-start-end",
  items: "align-items",
  self: "align-self",
  justify: "justify-content",
  align: "vertical-align",
  bg: "bg-color",
  divide: "divide-color",
  ...Object.fromEntries(
    [
      ..."aspect overflow overflow-x overflow-y inset inset-x inset-y top right bottom left z basis order grid-cols gap".split(" "),
      ..."gap-x gap-y justify-items justify-self space-x space-y size w min-w max-w h min-h max-h tracking line-clamp".split(" "),
      ..."leading underline-offset whitespace break opacity blur backdrop-blur duration ease delay rotate scale translate".split(" "),
      ..."translate-x translate-y pointer-events select resize cursor fill stroke grow shrink rounded divide-x divide-y".split(" "),
      ..."transition scroll-mt p m".split(" "),
      ...CORNERS,
      ...withSides("p"),
      ...withSides("m"),
    ].map((prefix) => [prefix, prefix]),
  ),
};
/** Prefixes that are a class on their own as well (`border`, `rounded`, `grow`). */
const BARE = new Set(["border", "ring", "outline", "shadow", "grow", "shrink", "resize", "rounded", "transition", "blur", "backdrop-blur", "divide-x", "divide-y", ...withSides("border-"), ...CORNERS]);

/** Utilities that are a word or a fixed phrase: "group:word word …". */
const WORD_GROUPS = new Map(
  [
    "display:block inline-block inline flex inline-flex table inline-table table-cell table-row flow-root grid inline-grid contents list-item hidden",
    "position:static fixed absolute relative sticky",
    "visibility:visible invisible collapse",
    "sr:sr-only not-sr-only",
    "isolation:isolate isolation-auto",
    "filter:filter filter-none",
    "container:container",
    "font-style:italic not-italic",
    "fvn-spacing:proportional-nums tabular-nums",
    "text-decoration:underline overline line-through no-underline",
    "text-transform:uppercase lowercase capitalize normal-case",
    "text-overflow:truncate text-ellipsis text-clip",
    "space-x-reverse:space-x-reverse",
    "space-y-reverse:space-y-reverse",
  ].flatMap((line) => {
    const [group = "", list = ""] = line.split(":");
    return list.split(" ").map((word) => [word, group] as const);
  }),
);

/** Later groups that remove these earlier ones (a later `p-2` overrides an earlier `px-4`). */
const OVERRIDES: Record<string, string[]> = {
  overflow: ["overflow-x", "overflow-y"],
  inset: ["inset-x", "inset-y", "top", "right", "bottom", "left"],
  "inset-x": ["right", "left"],
  "inset-y": ["top", "bottom"],
  flex: ["basis", "grow", "shrink"],
  gap: ["gap-x", "gap-y"],
  size: ["w", "h"],
  "font-size": ["leading"],
  "line-clamp": ["display", "overflow"],
  rounded: CORNERS,
  "rounded-t": ["rounded-tl", "rounded-tr"],
  "rounded-r": ["rounded-tr", "rounded-br"],
  "rounded-b": ["rounded-br", "rounded-bl"],
  "rounded-l": ["rounded-tl", "rounded-bl"],
  translate: ["translate-x", "translate-y"],
};
// Padding, margin, border width and colour: the whole overrides each side, an axis its two sides.
for (const prefix of ["p", "m", "border-w-", "border-color-"]) {
  OVERRIDES[prefix.replace(/-$/, "")] = withSides(prefix);
  OVERRIDES[`${prefix}x`] = withSides(prefix, ["r", "l"]);
  OVERRIDES[`${prefix}y`] = withSides(prefix, ["t", "b"]);
}

/**
 * The group of a utility without variants, `!` or `/modifier`, or undefined for a class Tailwind
 * does not know. The longest known prefix decides, as in tailwind-merge.
 */
export function classGroup(utility: string): string | undefined {
  if (utility.startsWith("[") && utility.endsWith("]")) {
    const colon = utility.indexOf(":");
    return colon > 1 ? utility.slice(0, colon) : undefined;
  }
  const name = utility.replace(/^-(?=.)/, "");
  const word = WORD_GROUPS.get(name);
  if (word) return word;
  for (let end = name.length; end > 0; end = name.lastIndexOf("-", end - 1)) {
    const prefix = name.slice(0, end);
    const value = name.slice(end + 1);
    if (value || BARE.has(prefix)) {
      const group = BY_VALUE[prefix]?.(value) ?? PREFIX_GROUPS[prefix];
      if (group) return group;
    }
  }
  return undefined;
}

/** The groups a class of `group` removes from earlier in the list. */
export function overriddenGroups(group: string): string[] {
  return OVERRIDES[group] ?? [];
}
