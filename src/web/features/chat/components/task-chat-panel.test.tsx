// @vitest-environment jsdom
import { QueryClientProvider } from "@tanstack/react-query";
import { act, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Message, ServerFrame } from "@shared/chat";
import type { TaskDetail } from "@shared/tasks";
import { userQueryKey } from "@/lib/current-user";
import { fakeApi, renderWithApp } from "@/testing/render";
import { TaskChatPanel } from "./task-chat-panel";

const TASK_ID = "00000000-0000-4000-8000-0000000000aa";
const POSTER = "00000000-0000-4000-8000-000000000001";
const PROVIDER = "00000000-0000-4000-8000-000000000002";

/** A WebSocket the test drives: it opens, speaks and drops when told to. */
class FakeSocket {
  static instances: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  sent: unknown[] = [];
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.onclose?.({ code: 1000, reason: "" });
  }
  // The server's side.
  open() {
    act(() => this.onopen?.());
  }
  receive(frame: ServerFrame) {
    act(() => this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(frame) })));
  }
  /** A dropped connection (1006, as a browser reports a lost network). */
  drop() {
    act(() => this.onclose?.({ code: 1006, reason: "" }));
  }
}

const latestSocket = () => {
  const socket = FakeSocket.instances.at(-1);
  if (!socket) throw new Error("no socket was opened");
  return socket;
};

const whileAway: Message = {
  id: "00000000-0000-4000-8000-0000000000m1",
  taskId: TASK_ID,
  senderId: PROVIDER,
  recipientId: POSTER,
  content: "Sent while you were away",
  read: true,
  createdAt: "2026-03-01T12:00:00.000Z",
};

/** What the server has stored for the task's chat. */
let stored: Message[] = [];

// The conversation is a lazily loaded chunk (docs/decisions/041-forms-loaded-on-first-use.md): loaded
// once here, so the first test's waits are for the socket, not for the module's first transform.
beforeAll(() => import("./task-chat-conversation"));
beforeEach(() => {
  FakeSocket.instances = [];
  stored = [];
  vi.stubGlobal("WebSocket", FakeSocket);
  // The shortest backoff (0.75 s for the first retry) keeps the test quick.
  vi.spyOn(Math, "random").mockReturnValue(0);
  fakeApi({
    "GET /api/auth/user": {
      body: { id: POSTER, email: "pat@example.test", firstName: "Pat", lastName: "Poster", first_name: "Pat", last_name: "Poster", name: "Pat Poster", profileImageUrl: null, role: "user", isAdmin: false, createdAt: "2026-01-01T00:00:00.000Z" },
    },
    [`GET /api/messages/${TASK_ID}`]: () => ({ body: stored }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function task(): TaskDetail {
  const party = (id: string) => ({ id, displayName: "A B.", photoUrl: null, rating: null, reviewCount: 0 });
  return {
    visibility: "public",
    photos: [],
    id: TASK_ID,
    title: "Groceries",
    description: "Milk",
    category: "errands",
    urgency: "standard",
    budget: 30,
    urgentFee: 0,
    serviceFee: 2.9,
    totalAmount: 32.9,
    providerShare: 25.5,
    platformCommission: 4.5,
    scheduledDate: null,
    city: null,
    state: null,
    startCity: null,
    startState: null,
    endCity: null,
    endState: null,
    stopCount: 0,
    isRoute: false,
    approxLat: null,
    approxLon: null,
    distanceMiles: null,
    status: "claimed",
    hiringMode: "first_to_claim",
    requestedProviderId: null,
    requestedProviderName: null,
    requestExpiresAt: null,
    requestFallback: null,
    requestOutcome: null,
    timeZone: "America/New_York",
    durationMinutes: 60,
    proposedStartAt: null,
    proposedById: null,
    onMyWayAt: null,
    arrivalEstimateAt: null,
    createdAt: "2026-03-01T11:00:00.000Z",
    userId: POSTER,
    providerId: PROVIDER,
    paymentDeadline: null,
    paymentCapturedAt: null,
    editedAt: null,
    poster: party(POSTER),
    provider: { id: PROVIDER, displayName: "Pat P.", profilePhotoUrl: null, rating: null, reviewCount: 0, completedTasks: 0 },
  };
}

const banner = () => screen.queryByText(/Connection lost\. Reconnecting/);

describe("TaskChatPanel connection states", { timeout: 20_000 }, () => {
  it("is offline without a banner while connecting, connected once authenticated", async () => {
    renderWithApp(<TaskChatPanel task={task()} />);
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    expect(screen.getByText("Offline")).toBeTruthy();
    expect(banner()).toBeNull();

    latestSocket().open();
    expect(latestSocket().sent).toEqual([{ type: "auth", taskId: TASK_ID }]);
    latestSocket().receive({ type: "auth_success" });
    expect(await screen.findByText("Connected")).toBeTruthy();
    expect(banner()).toBeNull();
  });

  it("shows the reconnect banner when the connection drops, and clears it with the missed messages once back", async () => {
    renderWithApp(<TaskChatPanel task={task()} />);
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    latestSocket().open();
    latestSocket().receive({ type: "auth_success" });
    await screen.findByText("Connected");
    expect(await screen.findByText("No messages yet. Say hello!")).toBeTruthy();

    latestSocket().drop();
    expect(banner()).toBeTruthy();
    expect(screen.getByText("Offline")).toBeTruthy();
    // The provider writes while this side is disconnected: no push reaches it.
    stored = [whileAway];
    // Sending still works over HTTP meanwhile: the composer stays usable.
    expect(screen.getByRole("textbox", { name: "Message" }).hasAttribute("disabled")).toBe(false);

    // It retries by itself after the backoff, and the banner stays until the server accepts it.
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(2), { timeout: 5000 });
    latestSocket().open();
    expect(banner()).toBeTruthy();
    expect(screen.queryByText("Sent while you were away")).toBeNull();
    latestSocket().receive({ type: "auth_success" });

    expect(await screen.findByText("Connected")).toBeTruthy();
    expect(banner()).toBeNull();
    expect(await screen.findByText("Sent while you were away")).toBeTruthy();
  });

  it("shows the banner when the first connection fails before it was ever up", async () => {
    renderWithApp(<TaskChatPanel task={task()} />);
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    latestSocket().drop();
    expect(banner()).toBeTruthy();
    expect(screen.queryByText("Connected")).toBeNull();
  });
});

// Once e2e/honest-copy.e2e.ts, on the provider's page of a cancelled paid task: the chat reads
// Closed even while its socket is up, says why, and asks no one to say hello or write.
describe("TaskChatPanel of a cancelled task", { timeout: 20_000 }, () => {
  it("reads Closed with the reason, even connected, and offers neither a first hello nor a message box", async () => {
    const why = "The poster cancelled this task, so the chat is closed.";
    renderWithApp(<TaskChatPanel task={{ ...task(), status: "cancelled" }} closedLine={why} />);
    expect(await screen.findByText(why)).toBeTruthy();
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(1));
    latestSocket().open();
    latestSocket().receive({ type: "auth_success" });
    expect(await screen.findByText("No messages were sent.")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("Closed");
    expect(screen.queryByText("Connected")).toBeNull();
    expect(screen.queryByText(/Say hello/)).toBeNull();
    expect(screen.queryByRole("textbox", { name: "Message" })).toBeNull();
  });
});

describe("TaskChatPanel for an admin", () => {
  it("says where an admin writes instead of Offline and a refusal, and opens no socket", async () => {
    const ADMIN = "00000000-0000-4000-8000-000000000009";
    fakeApi({
      "GET /api/auth/user": {
        body: { id: ADMIN, email: "ada@example.test", firstName: "Ada", lastName: "Admin", first_name: "Ada", last_name: "Admin", name: "Ada Admin", profileImageUrl: null, role: "admin", isAdmin: true, createdAt: "2026-01-01T00:00:00.000Z" },
      },
    });
    renderWithApp(<TaskChatPanel task={task()} />);
    expect(await screen.findByText(/Only the poster and the provider write in this chat\. To write to both of them about a reported problem, add a note in the problem's thread on this page\./)).toBeTruthy();
    expect(screen.queryByText("Offline")).toBeNull();
    expect(screen.queryByText(/permission/)).toBeNull();
    expect(FakeSocket.instances).toHaveLength(0);
  });

  it("tells another provider nothing while their account is coming, then its closed line, never a refusal first", async () => {
    const OTHER = "00000000-0000-4000-8000-000000000007";
    fakeApi({
      "GET /api/auth/user": {
        body: { id: OTHER, email: "olly@example.test", firstName: "Olly", lastName: "Offerer", first_name: "Olly", last_name: "Offerer", name: "Olly Offerer", profileImageUrl: null, role: "provider", isAdmin: false, createdAt: "2026-01-01T00:00:00.000Z" },
      },
    });
    const line = "Another offer was chosen, so this task's chat is only between its poster and the provider they chose.";
    const view = renderWithApp(<TaskChatPanel task={task()} closedLinePending />);
    // Once the reader is known (not a party), the chat waits for the account instead of refusing.
    await waitFor(() => expect(view.client.getQueryData(userQueryKey)).toBeTruthy());
    expect(screen.getByText("Loading...")).toBeTruthy();
    expect(screen.queryByText(/permission/)).toBeNull();
    view.rerender(
      <QueryClientProvider client={view.client}>
        <TaskChatPanel task={task()} closedLine={line} />
      </QueryClientProvider>,
    );
    expect(await screen.findByText(line)).toBeTruthy();
    expect(screen.queryByText(/permission/)).toBeNull();
    expect(FakeSocket.instances).toHaveLength(0);
  });
});
