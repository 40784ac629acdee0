// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { CURRENT_PASSWORD_WRONG } from "@shared/account";
import { fakeApi, renderWithApp } from "@/testing/render";
import { ChangePasswordForm } from "./change-password-form";

// The change-password form checks the server's schema before sending, and puts the server's
// refusals under the fields they name (`fieldErrors`), whatever their words say.

const errorOf = (label: string) => {
  const field = screen.getByLabelText(new RegExp(`^${label}`), { selector: "input" });
  const id = field.getAttribute("aria-describedby") ?? "";
  return id.split(" ").map((part) => document.getElementById(part)?.textContent ?? "").join(" ").trim();
};

async function fill(current: string, next: string, repeat: string) {
  const user = userEvent.setup();
  if (current) await user.type(screen.getByLabelText(/^Current password/, { selector: "input" }), current);
  if (next) await user.type(screen.getByLabelText(/^New password/, { selector: "input" }), next);
  if (repeat) await user.type(screen.getByLabelText(/^Repeat the new password/, { selector: "input" }), repeat);
  await user.click(screen.getByRole("button", { name: "Change password" }));
}

describe("ChangePasswordForm", { timeout: 30_000 }, () => {
  it("shows each problem under its field at the first press and sends nothing", async () => {
    const api = fakeApi({});
    renderWithApp(<ChangePasswordForm />);
    await fill("", "short", "other");
    expect(await screen.findByText("Current password is required")).toBeTruthy();
    expect(errorOf("New password")).toContain("Password must be at least 10 characters");
    expect(errorOf("Repeat the new password")).toContain("The two new passwords are not the same. Type it again.");
    expect(api.calls).toEqual([]);
  });

  it("puts the server's refusal under the field it names, whatever its words", async () => {
    const sameAsBefore = "Your new password must differ from your current password. Choose another.";
    const api = fakeApi({
      "POST /api/account/password": ({ body }) =>
        (body as { currentPassword: string }).currentPassword === "wrong wrong"
          ? { status: 400, body: { message: CURRENT_PASSWORD_WRONG, fieldErrors: { currentPassword: CURRENT_PASSWORD_WRONG } } }
          : { status: 400, body: { message: sameAsBefore, fieldErrors: { newPassword: sameAsBefore } } },
    });
    renderWithApp(<ChangePasswordForm />);
    await fill("wrong wrong", "brand new secret 1", "brand new secret 1");
    expect(await screen.findByText(CURRENT_PASSWORD_WRONG)).toBeTruthy();
    expect(errorOf("Current password")).toContain(CURRENT_PASSWORD_WRONG);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Current password/, { selector: "input" }));

    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/^Current password/, { selector: "input" }));
    await fill("right one here", "", "");
    expect(await screen.findByText(sameAsBefore)).toBeTruthy();
    expect(errorOf("New password")).toContain(sameAsBefore);
    expect(errorOf("Current password")).toBe("");
    expect(api.called("POST", "/api/account/password")).toHaveLength(2);
  });
});
