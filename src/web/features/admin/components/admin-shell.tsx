import type { ReactNode } from "react";
import { AdminNav } from "./admin-nav";

/**
 * Every admin page's frame: one width, the page's heading and the one admin sub-navigation, so
 * moving between admin pages keeps the navigation in place (docs/product.md#web-app).
 */
export function AdminShell({ title, description, current, children }: { title: string; description?: string; current: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <header className="mb-8 grid gap-4">
        <AdminNav current={current} />
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {description && <p className="text-muted-foreground">{description}</p>}
      </header>
      {children}
    </div>
  );
}
