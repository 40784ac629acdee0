import { createElement, forwardRef, type ReactNode, type SVGProps } from "react";

// What draws every lucide-react icon in the built app, in place of lucide's own factory
// (docs/decisions/042-landing-under-90-kb.md): the build points each icon module's
// `../createLucideIcon.mjs` here (vite.config.ts, `lucideIcons`). The icons' drawings stay
// lucide's; this only turns one into an <svg>, without lucide's context provider and attribute
// builder, which the app never uses: about 1 KB less on every first load (issue 17).
// lib/lucide-icon.test.ts renders every icon the app imports both ways and compares the markup; the
// version it mirrors and how to upgrade: docs/decisions/046-libraries-written-by-hand.md.

interface IconData {
  name: string;
  aliases?: string[];
  node: [tag: string, attributes: Record<string, string>][];
}

interface IconProps extends SVGProps<SVGSVGElement> {
  size?: string | number;
  absoluteStrokeWidth?: boolean;
  children?: ReactNode;
}

/** lucide's `aria-hidden` rule: an icon with no text and no accessible name is decoration. */
function isLabelled(props: Record<string, unknown>): boolean {
  return Object.keys(props).some((key) => (key.startsWith("aria-") || key === "role" || key === "title") && props[key] != null);
}

export default function createLucideIcon({ name, aliases = [], node }: IconData) {
  return forwardRef<SVGSVGElement, IconProps>(function LucideIcon(
    { color, size, width, height, strokeWidth = 2, absoluteStrokeWidth, className = "", children, ...rest },
    ref,
  ) {
    const classes = ["lucide", `lucide-${name}`, ...aliases.map((alias) => `lucide-${alias}`), ...className.split(/\s+/)];
    return createElement(
      "svg",
      {
        ref,
        xmlns: "http://www.w3.org/2000/svg",
        width: width ?? size ?? 24,
        height: height ?? size ?? 24,
        viewBox: "0 0 24 24",
        fill: "none",
        stroke: color || "currentColor",
        strokeWidth: absoluteStrokeWidth ? (Number(strokeWidth) * 24) / Number(width ?? size ?? 24) : strokeWidth,
        strokeLinecap: "round",
        strokeLinejoin: "round",
        className: [...new Set(classes.filter(Boolean))].join(" "),
        ...(children || isLabelled(rest) ? {} : { "aria-hidden": "true" }),
        ...rest,
      },
      ...node.map(([tag, attributes]) => createElement(tag, attributes)),
      children,
    );
  });
}
