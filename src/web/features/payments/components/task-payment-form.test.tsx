// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CARD_REFUSED_NEXT_STEP } from "@shared/payments";
import type { TaskDetail } from "@shared/tasks";
import { dispatch } from "@/components/ui/use-toast";
import { fakeApi, renderWithApp } from "@/testing/render";
import { TaskPaymentForm } from "./task-payment-form";

const TASK_ID = "00000000-0000-4000-8000-0000000000aa";

type PublicTask = Extract<TaskDetail, { visibility: "public" }>;

function claimedTask(overrides: Partial<PublicTask> = {}): PublicTask {
  const party = { id: "00000000-0000-4000-8000-000000000001", displayName: "Pat P.", photoUrl: null, rating: null, reviewCount: 0 };
  return {
    visibility: "public",
    photos: [],
    id: TASK_ID,
    title: "Parcel pickup",
    description: "One box",
    category: "errands",
    urgency: "urgent",
    budget: 100,
    urgentFee: 15,
    serviceFee: 9.7,
    totalAmount: 124.7,
    providerShare: 97.75,
    platformCommission: 17.25,
    scheduledDate: null,
    city: "Annapolis",
    state: "MD",
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
    createdAt: new Date().toISOString(),
    userId: party.id,
    providerId: "00000000-0000-4000-8000-000000000002",
    paymentDeadline: new Date(Date.now() + 20 * 60_000).toISOString(),
    paymentCapturedAt: null,
    editedAt: null,
    poster: party,
    provider: null,
    ...overrides,
  };
}

function sandbox(confirm: { status: number; body: unknown } = { status: 200, body: { status: "succeeded" } }) {
  return fakeApi({
    "POST /api/create-payment-intent": { body: { clientSecret: "pi_test_secret" } },
    "GET /api/payments/config": { body: { gateway: "sandbox", publishableKey: null } },
    "POST /api/sandbox/payments/confirm": confirm,
  });
}

/** A field by its accessible name (the required asterisk is hidden from it, as from screen readers). */
const field = (name: string) => screen.getByRole<HTMLInputElement>("textbox", { name });

/** The message shown for a field: the element its control names in aria-describedby as the error. */
function errorOf(label: string): string | null {
  const control = field(label);
  expect(control.getAttribute("aria-invalid")).toBe("true");
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ");
  const error = ids.map((id) => document.getElementById(id)).find((el) => el?.id.endsWith("-error"));
  return error?.textContent ?? null;
}

afterEach(() => {
  vi.unstubAllGlobals();
  // The toast store is the module's: one test's "Payment Successful" must not show in the next.
  dispatch({ type: "REMOVE_TOAST" });
});

describe("TaskPaymentForm (sandbox card)", { timeout: 30_000 }, () => {
  it("asks for the task's total and shows each card error under its own field, charging nothing", async () => {
    const api = sandbox();
    const user = userEvent.setup({ delay: null });
    renderWithApp(<TaskPaymentForm task={claimedTask()} />);

    // Nothing is asked of the processor until the poster opens the card form, whose button says the amount.
    const open = await screen.findByRole("button", { name: "Pay by card ($124.70)" });
    expect(api.called("POST", "/api/create-payment-intent")).toEqual([]);
    await user.click(open);
    const pay = await screen.findByRole("button", { name: "Pay $124.70" });
    expect(api.called("POST", "/api/create-payment-intent")[0]?.body).toEqual({ amount: 124.7, taskId: TASK_ID });
    // Straight to the card number.
    expect(document.activeElement).toBe(field("Card number"));
    await user.click(pay);

    expect(await screen.findByText("Card number must be 12 to 19 digits")).toBeTruthy();
    expect(errorOf("Card number")).toBe("Card number must be 12 to 19 digits");
    expect(errorOf("Expiry (MM/YY)")).toBe("Enter the expiry as MM/YY.");
    expect(errorOf("CVC")).toBe("CVC must be 3 or 4 digits");

    await user.type(field("Card number"), "4242424242424241");
    await user.type(field("Expiry (MM/YY)"), "01/20");
    await user.type(field("CVC"), "12x3");
    await user.click(pay);

    await waitFor(() => expect(errorOf("Card number")).toBe("Your card number is invalid."));
    expect(errorOf("Expiry (MM/YY)")).toBe("Your card's expiration date is in the past.");
    // Letters never reach the CVC; the digits typed are a valid CVC.
    expect(field("CVC").value).toBe("123");
    expect(field("CVC").getAttribute("aria-invalid")).toBeNull();
    expect(api.called("POST", "/api/sandbox/payments/confirm")).toEqual([]);
  });

  it("groups the card number as typed, confirms the payment and says it succeeded", async () => {
    const api = sandbox();
    const user = userEvent.setup({ delay: null });
    renderWithApp(<TaskPaymentForm task={claimedTask()} />);

    await user.click(await screen.findByRole("button", { name: "Pay by card ($124.70)" }));
    await user.type(await screen.findByRole("textbox", { name: "Card number" }), "4242424242424242");
    expect(field("Card number").value).toBe("4242 4242 4242 4242");
    await user.type(field("Expiry (MM/YY)"), "12/34");
    await user.type(field("CVC"), "123");
    await user.click(screen.getByRole("button", { name: "Pay $124.70" }));

    expect(await screen.findByText("Payment Successful")).toBeTruthy();
    expect(api.called("POST", "/api/sandbox/payments/confirm").map((c) => c.body)).toEqual([
      { clientSecret: "pi_test_secret", cardNumber: "4242424242424242", expMonth: 12, expYear: 2034, cvc: "123" },
    ]);
  });

  it("says a declined card on the form, with what to try next, and not a success", async () => {
    sandbox({ status: 402, body: { message: "Your card was declined." } });
    const user = userEvent.setup({ delay: null });
    renderWithApp(<TaskPaymentForm task={claimedTask()} />);

    await user.click(await screen.findByRole("button", { name: "Pay by card ($124.70)" }));
    await user.type(await screen.findByRole("textbox", { name: "Card number" }), "4000000000000002");
    await user.type(field("Expiry (MM/YY)"), "12/34");
    await user.type(field("CVC"), "123");
    await user.click(screen.getByRole("button", { name: "Pay $124.70" }));

    const refusal = await screen.findByRole("alert");
    expect(within(screen.getByRole("form", { name: "Card payment" })).getByRole("alert")).toBe(refusal);
    expect(refusal.textContent).toBe(`Payment failedYour card was declined. ${CARD_REFUSED_NEXT_STEP}`);
    expect(screen.queryByText("Payment Successful")).toBeNull();
  });

  it("asks for no card once the payment window has closed", async () => {
    const api = sandbox();
    renderWithApp(<TaskPaymentForm task={claimedTask({ paymentDeadline: new Date(Date.now() - 1000).toISOString() })} />);

    expect(await screen.findByText("The payment window has closed.")).toBeTruthy();
    expect(screen.queryByRole("textbox", { name: "Card number" })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Pay by card/ })).toBeNull();
    expect(api.calls).toEqual([]);
  });
});
