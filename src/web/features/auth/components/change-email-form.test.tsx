// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderWithApp } from "@/testing/render";
import { ChangeEmailForm } from "./change-email-form";

// The change-of-e-mail form puts the server's refusals under the fields they name (`fieldErrors`),
// and says in a toast only what no field shows.

const errorOf = (label: RegExp) => {
  const field = screen.getByLabelText(label, { selector: "input" });
  const ids = (field.getAttribute("aria-describedby") ?? "").split(" ");
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ").trim();
};

async function send(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/^New e-mail address/, { selector: "input" }), email);
  await user.type(screen.getByLabelText(/^Current password/, { selector: "input" }), password);
  await user.click(screen.getByRole("button", { name: "Send confirmation link" }));
}

describe("ChangeEmailForm", { timeout: 30_000 }, () => {
  it("puts the server's refusal under the field it names and takes the focus there", async () => {
    const wrong = "That password is not right. Type the password you sign in with, or reset it from the sign-in page.";
    const api = fakeApi({ "POST /api/auth/change-email": { status: 400, body: { message: wrong, fieldErrors: { password: wrong } } } });
    renderWithApp(<ChangeEmailForm currentEmail="poster@errandly.test" />);
    await send("new@errandly.test", "not my password");
    expect(await screen.findByText(wrong)).toBeTruthy();
    expect(errorOf(/^Current password/)).toContain(wrong);
    expect(errorOf(/^New e-mail address/)).not.toContain(wrong);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Current password/, { selector: "input" }));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(api.called("POST", "/api/auth/change-email")).toHaveLength(1);
  });

  it("says a refusal that names no field in a toast", async () => {
    const same = "poster@errandly.test is already your e-mail address. Type the new one.";
    fakeApi({ "POST /api/auth/change-email": { status: 400, body: { message: same } } });
    renderWithApp(<ChangeEmailForm currentEmail="poster@errandly.test" />);
    await send("poster@errandly.test", "demo-harbor-lantern");
    expect(await screen.findByText(/is already your e-mail address. Type the new one./)).toBeTruthy();
    expect(errorOf(/^New e-mail address/)).toBe("");
  });
});
