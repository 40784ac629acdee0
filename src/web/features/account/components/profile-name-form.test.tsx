// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderWithApp } from "@/testing/render";
import { ProfileNameForm } from "./profile-name-form";

// The name form checks the server's schema before sending, and puts the server's refusals under
// the fields they name (`fieldErrors`), like every other form (src/web/lib/schema-form.ts).

const account = { firstName: "Ann", lastName: "Lee", email: "ann@example.com", hasPassword: true, profileImageUrl: null, pendingProfileImageUrl: null };

const errorOf = (label: string) => {
  const field = screen.getByLabelText(new RegExp(`^${label}`), { selector: "input" });
  const id = field.getAttribute("aria-describedby") ?? "";
  return id.split(" ").map((part) => document.getElementById(part)?.textContent ?? "").join(" ").trim();
};

// The form loads on first use (decision 041): beside lint and both typechecks on two cores its first
// import took over 10 s, so the wait for its answer is long (the test's own limit is 40 s).
describe("ProfileNameForm", { timeout: 40_000 }, () => {
  it("shows an empty name under its field and sends nothing", async () => {
    const api = fakeApi({ "GET /api/account": { body: account } });
    renderWithApp(<ProfileNameForm />);
    const user = userEvent.setup();
    await user.clear(await screen.findByDisplayValue("Ann"));
    await user.click(screen.getByRole("button", { name: "Save name" }));
    expect(await screen.findByText("First name is required", {}, { timeout: 25_000 })).toBeTruthy();
    expect(errorOf("First name")).toBe("First name is required");
    expect(api.called("PATCH", "/api/account/profile")).toEqual([]);
  });

  it("puts the server's refusal under the field it names", async () => {
    const refusal = "Use the name on your ID, without digits. Change it and save again.";
    const api = fakeApi({
      "GET /api/account": { body: account },
      "PATCH /api/account/profile": { status: 400, body: { message: refusal, fieldErrors: { lastName: refusal } } },
    });
    renderWithApp(<ProfileNameForm />);
    const user = userEvent.setup();
    await user.type(await screen.findByDisplayValue("Lee"), "2");
    await user.click(screen.getByRole("button", { name: "Save name" }));
    expect(await screen.findByText(refusal, {}, { timeout: 25_000 })).toBeTruthy();
    expect(errorOf("Last name")).toBe(refusal);
    expect(errorOf("First name")).toBe("");
    expect(document.activeElement).toBe(screen.getByLabelText(/^Last name/, { selector: "input" }));
    expect(api.called("PATCH", "/api/account/profile")).toHaveLength(1);
  });
});
