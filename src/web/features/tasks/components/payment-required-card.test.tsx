// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { privateTask, PROVIDER } from "@/testing/task-fixture";
import { PaymentRequiredCard } from "./payment-required-card";

// Issue 41: after the poster accepted an offer the card said "A provider claimed your task", and on
// a phone it stayed below the fold with nothing pointing at it.

const claimed = (overrides: Parameters<typeof privateTask>[0] = {}) =>
  privateTask({ status: "claimed", providerId: PROVIDER.id, provider: PROVIDER, paymentDeadline: null, ...overrides });

// jsdom lays nothing out, so it has no scrollIntoView of its own: each test's stand-in is removed after it.
const jsdomScroll = Element.prototype.scrollIntoView;
afterEach(() => {
  Element.prototype.scrollIntoView = jsdomScroll;
});

describe("PaymentRequiredCard", () => {
  it("says how the provider came: an accepted offer, an accepted request, or a claim", () => {
    const { rerender } = render(<PaymentRequiredCard task={claimed({ hiringMode: "offers" })} bringIntoView={false}>form</PaymentRequiredCard>);
    expect(screen.getByText(/^You accepted Sam P\.'s offer\. Pay to confirm it/)).toBeTruthy();
    expect(screen.queryByText(/claimed your task/)).toBeNull();
    rerender(<PaymentRequiredCard task={claimed({ requestedProviderId: PROVIDER.id, requestedProviderName: "Sam P.", requestOutcome: "accepted" })} bringIntoView={false}>form</PaymentRequiredCard>);
    expect(screen.getByText(/^Sam P\. accepted your request\. Pay to confirm it/)).toBeTruthy();
    rerender(<PaymentRequiredCard task={claimed()} bringIntoView={false}>form</PaymentRequiredCard>);
    expect(screen.getByText(/^Sam P\. claimed your task\. Pay to confirm it/)).toBeTruthy();
  });

  it("scrolls itself into view and focuses its heading when the poster has just accepted, and only then", async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const { unmount } = render(<PaymentRequiredCard task={claimed({ hiringMode: "offers" })} bringIntoView={false}>form</PaymentRequiredCard>);
    expect(scrolled).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(document.body);
    unmount();
    render(<PaymentRequiredCard task={claimed({ hiringMode: "offers" })} bringIntoView>form</PaymentRequiredCard>);
    const heading = screen.getByRole("heading", { name: "Payment Required" });
    await vi.waitFor(() => expect(scrolled).toHaveBeenCalledTimes(1));
    expect((scrolled.mock.contexts[0] as Element).contains(heading)).toBe(true);
    expect(document.activeElement).toBe(heading);
  });
});
