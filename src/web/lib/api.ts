import { QueryClient, type QueryFunction } from "@tanstack/react-query";
import { STEP_UP_REQUIRED } from "@shared/security-rules";

// The API client (docs/product.md#web-app): every call sends cookies, bodies are JSON, and a non-OK answer
// throws an Error whose message is "status: body text" (the body's `message` when it is JSON).

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly serverMessage: string,
    /** A 400's refused fields, {path: message} (docs/product.md#validation); empty otherwise. */
    readonly fieldErrors: Record<string, string> = {},
    /** The server's machine-readable cause ("step_up_required", src/shared/security.ts), when it gave one. */
    readonly reason?: string,
  ) {
    super(`${status}: ${serverMessage}`);
    this.name = "ApiError";
  }
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

async function throwIfNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text()) || res.statusText;
  let message = text;
  let fieldErrors: Record<string, string> = {};
  let reason: string | undefined;
  try {
    const parsed = JSON.parse(text) as { message?: unknown; fieldErrors?: unknown; reason?: unknown };
    if (typeof parsed.message === "string") message = parsed.message;
    fieldErrors = stringRecord(parsed.fieldErrors);
    if (typeof parsed.reason === "string") reason = parsed.reason;
  } catch {
    // Not JSON: keep the text.
  }
  throw new ApiError(res.status, message, fieldErrors, reason);
}

/**
 * Sensitive changes answer 403 "step_up_required" when the password or a passkey was not proven in
 * the last minutes (docs/decisions/050-step-up-and-security-log.md). The app mounts one prompt that
 * registers here; apiRequest asks it, and when the person confirmed, sends the request once more.
 */
type StepUpPrompt = () => Promise<boolean>;
let stepUpPrompt: StepUpPrompt | null = null;
export function setStepUpPrompt(prompt: StepUpPrompt | null): void {
  stepUpPrompt = prompt;
}

export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const send = () =>
    fetch(url, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "include",
    });
  let res = await send();
  if (res.status === 403 && stepUpPrompt && (await res.clone().text()).includes(`"reason":"${STEP_UP_REQUIRED}"`) && (await stepUpPrompt())) res = await send();
  await throwIfNotOk(res);
  if (res.status === 204) return undefined as T;
  const type = res.headers.get("content-type") ?? "";
  return (type.includes("application/json") ? await res.json() : await res.text()) as T;
}

/** An unauthorized error (docs/product.md#web-app): "401: " followed by the server's text; ours says "Unauthorized". */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/** The server's own message of an error, for toasts; falls back when there is none. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage || fallback;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}

type On401 = "returnNull" | "throw";

/** The default query function joins the key's segments with "/" into a GET path (docs/product.md#web-app). */
export function getQueryFn<T>({ on401 }: { on401: On401 }): QueryFunction<T> {
  return async ({ queryKey }) => {
    const res = await fetch(queryKey.join("/"), { credentials: "include" });
    if (on401 === "returnNull" && res.status === 401) return null as T;
    await throwIfNotOk(res);
    return (await res.json()) as T;
  };
}

/** Cached data never stale, no refetch on focus, no polling, no retries (docs/product.md#web-app). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: "throw" }),
        staleTime: Infinity,
        refetchInterval: false,
        refetchOnWindowFocus: false,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

/** The app's one client; component tests make their own with createQueryClient(). */
export const queryClient = createQueryClient();

/** Full-page navigation to sign-in (docs/product.md#web-app), coming back to `returnTo`. */
export function goToLogin(returnTo: string = window.location.pathname + window.location.search): void {
  window.location.href = `/api/login?returnTo=${encodeURIComponent(returnTo)}`;
}
