// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderWithApp } from "@/testing/render";
import { ContactForm } from "./contact-form";

// The contact form, like every form on useSchemaForm, puts a server refusal under the field it
// names (`fieldErrors`) instead of in a toast.

describe("ContactForm", { timeout: 30_000 }, () => {
  it("puts the server's refusal under the field it names", async () => {
    const refused = "We cannot deliver mail to that address. Check it and send again.";
    const api = fakeApi({ "POST /api/contact": { status: 400, body: { message: refused, fieldErrors: { email: refused } } } });
    renderWithApp(<ContactForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^Name/, { selector: "input" }), "Ada");
    await user.type(screen.getByLabelText(/^Email/, { selector: "input" }), "ada@example.test");
    await user.type(screen.getByLabelText(/^Subject/, { selector: "input" }), "Hello");
    await user.type(screen.getByLabelText(/^Message/, { selector: "textarea" }), "A question about errands.");
    await user.click(screen.getByRole("button", { name: "Send Message" }));

    expect(await screen.findByText(refused)).toBeTruthy();
    const email = screen.getByLabelText(/^Email/, { selector: "input" });
    const described = (email.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "");
    expect(described.join(" ")).toContain(refused);
    expect(document.activeElement).toBe(email);
    expect(screen.queryByText("Failed to Send")).toBeNull();
    expect(api.called("POST", "/api/contact")).toHaveLength(1);
  });
});
