// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeApi, renderWithApp } from "@/testing/render";
import { AskFelixButton } from "./ask-felix-button";

// The Ask Felix dialog loads on first use (components/ui/deferred-dialog.tsx); closing it puts the
// focus back on its button, as any dialog does, so a keyboard user goes on from where they were.

describe("AskFelixButton", () => {
  it("opens Felix at the press and gives the focus back to the button on close", async () => {
    fakeApi({});
    const user = userEvent.setup();
    renderWithApp(<AskFelixButton mode="recommend" context={{ stops: [], urgency: "standard" }} />);
    const button = screen.getByRole("button", { name: "Ask Felix" });
    await user.click(button);
    expect(await screen.findByRole("dialog", {}, { timeout: 10_000 })).toBeTruthy();
    await user.keyboard("{Escape}");
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(button);
  });
});
