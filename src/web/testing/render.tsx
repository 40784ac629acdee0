import { QueryClientProvider } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import type { ReactElement } from "react";
import { vi } from "vitest";
import { Toaster } from "@/components/ui/toaster";
import { createQueryClient } from "@/lib/api";

// Component tests render with the app's own query defaults and toaster, against a fake server:
// `fakeApi` answers fetch by "METHOD /path" and records every request it saw.

export interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status?: number; body: unknown } | ((call: ApiCall) => { status?: number; body: unknown });

export function fakeApi(routes: Record<string, Answer>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    const call: ApiCall = { method, path: url.pathname, body: typeof init?.body === "string" ? JSON.parse(init.body) : undefined };
    calls.push(call);
    const route = routes[`${method} ${url.pathname}`];
    if (!route) return Response.json({ message: `No fake for ${method} ${url.pathname}` }, { status: 404 });
    const { status = 200, body } = typeof route === "function" ? route(call) : route;
    return Response.json(body, { status });
  });
  vi.stubGlobal("fetch", fetchMock);
  return { calls, called: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

export function renderWithApp(ui: ReactElement) {
  const client = createQueryClient();
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        {ui}
        <Toaster />
      </QueryClientProvider>,
    ),
  };
}
