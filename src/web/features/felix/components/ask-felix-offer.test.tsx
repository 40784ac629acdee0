// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { FelixResponse } from "@shared/felix";
import { fakeApi, renderWithApp } from "@/testing/render";
import { AskFelixButton } from "./ask-felix-button";

// Ask Felix on an offer (issue 44): the dialog sends the offer's own price and reads the answer in
// the poster's words, with no "before claiming" (the provider's wording before claiming a task).

const answer = (offered: number, status: "high" | "fair"): FelixResponse => ({
  reply: `This $${offered} offer is ...`,
  suggestedBudget: 40,
  pricingBreakdown: null,
  evaluation: { status, percentDiff: Math.round(((offered - 40) / 40) * 1000) / 10, offeredBudget: offered, fairBudget: 40 },
  market: null,
  work: null,
});

describe("Ask Felix on an offer", () => {
  it("sends the offer's price, not the task's budget, and shows the verdict in the poster's words", async () => {
    const api = fakeApi({ "POST /api/ask-felix": (call) => ({ body: answer((call.body as { context: { offerPrice: number } }).context.offerPrice, "high") }) });
    const user = userEvent.setup();
    renderWithApp(<AskFelixButton mode="evaluate" subject="offer" context={{ stops: [], urgency: "standard", category: "errands", offeredBudget: 40, offerPrice: 60, taskId: "5f0c6a5e-2f43-4f57-8f8a-1d1b2d2b1e11" }} />);
    await user.click(screen.getByRole("button", { name: "Ask Felix" }));
    const dialog = await screen.findByRole("dialog", {}, { timeout: 10_000 });
    expect(dialog.textContent).toContain("Felix will help you judge whether this offer's price is fair for the work.");
    expect(dialog.textContent).not.toContain("before claiming");
    await vi.waitFor(() => expect(api.called("POST", "/api/ask-felix")).toHaveLength(1), { timeout: 5_000 });
    expect(api.called("POST", "/api/ask-felix")[0]?.body).toMatchObject({ message: "Please evaluate this offer.", mode: "evaluate", context: { offerPrice: 60 } });
    const card = await screen.findByRole("region", { name: "Budget evaluation" });
    expect(card.textContent).toContain("Above Market");
    expect(card.textContent).toContain("This offer");
    expect(card.textContent).not.toContain("Great Opportunity");
  });
});
