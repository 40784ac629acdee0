import type { LucideIcon } from "lucide-react";

/** An icon beside a short heading and a sentence: the building block of feature lists. */
export function IconPoint({ icon: Icon, title, text, className }: { icon: LucideIcon; title: string; text: string; className?: string }) {
  return (
    <li className={className ?? "flex gap-4"}>
      <Icon className="mt-1 size-6 shrink-0 text-primary" aria-hidden="true" />
      <div>
        <h3 className="font-semibold">{title}</h3>
        <p className="mt-1 text-sm text-muted-foreground">{text}</p>
      </div>
    </li>
  );
}
