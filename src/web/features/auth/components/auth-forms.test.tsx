// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderWithApp } from "@/testing/render";
import { SignUpForm } from "./auth-forms";

// Sign-up puts the password policy's refusal (fieldErrors.password) under the Password field, not
// in the alert above the form (docs/product.md#validation).

describe("SignUpForm", { timeout: 30_000 }, () => {
  it("puts the server's refusal of the password under the Password field", async () => {
    const guessable = "That password contains your name, so it is easy to guess. Choose another.";
    const api = fakeApi({ "POST /api/auth/register": { status: 400, body: { message: guessable, fieldErrors: { password: guessable } } } });
    renderWithApp(<SignUpForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^First name/, { selector: "input" }), "Ada");
    await user.type(screen.getByLabelText(/^Last name/, { selector: "input" }), "Lovelace");
    await user.type(screen.getByLabelText(/^Email/, { selector: "input" }), "ada@example.test");
    await user.type(screen.getByLabelText(/^Password/, { selector: "input" }), "ada lovelace 1815");
    await user.click(screen.getByRole("button", { name: "Create Account" }));

    expect(await screen.findByText(guessable)).toBeTruthy();
    const password = screen.getByLabelText(/^Password/, { selector: "input" });
    const described = (password.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "");
    expect(described.join(" ")).toContain(guessable);
    expect(document.activeElement).toBe(password);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(api.called("POST", "/api/auth/register")).toHaveLength(1);
  });
});
