// @vitest-environment jsdom
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi, renderWithApp } from "@/testing/render";
import { ContactForm } from "./contact-form";

// The contact form, like every form on useSchemaForm, puts a refusal under the field it names (its
// own schema's before anything is sent, the server's `fieldErrors` after) instead of in a toast, and
// a sent message says so and empties the form (docs/product.md#contact-and-appointments). Once in
// e2e/public-site.e2e.ts; the route's axe sweep is every-route-a11y's.

const field = (label: RegExp) => screen.getByLabelText(label, { selector: "input, textarea" }) as HTMLInputElement | HTMLTextAreaElement;

async function fill(user: ReturnType<typeof userEvent.setup>, email: string) {
  await user.type(field(/^Name/), "Casey Visitor");
  await user.type(field(/^Email/), email);
  await user.type(field(/^Subject/), "Service area");
  await user.type(field(/^Message/), "Do you cover Baltimore?");
}

/** The text of the elements that describe `element` (its hint and its error). */
const describedText = (element: Element) =>
  (element.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ");

describe("ContactForm", { timeout: 30_000 }, () => {
  it("refuses a bad e-mail under its field and sends nothing", async () => {
    const api = fakeApi({ "POST /api/contact": { status: 201, body: { ok: true, id: "m1" } } });
    renderWithApp(<ContactForm />);
    const user = userEvent.setup();
    await fill(user, "casey-at-example");
    await user.click(screen.getByRole("button", { name: "Send Message" }));

    const email = field(/^Email/);
    await waitFor(() => expect(email.getAttribute("aria-invalid")).toBe("true"));
    expect(describedText(email)).toContain("Invalid email address");
    expect(screen.queryByText("Message Sent!")).toBeNull();
    expect(api.called("POST", "/api/contact")).toHaveLength(0);
  });

  it("sends a valid message, says it was received and empties the form", async () => {
    const api = fakeApi({ "POST /api/contact": { status: 201, body: { ok: true, id: "m1" } } });
    renderWithApp(<ContactForm />);
    const user = userEvent.setup();
    await fill(user, "casey@example.test");
    await user.click(screen.getByRole("button", { name: "Send Message" }));

    expect(await screen.findByText("Message Sent!")).toBeTruthy();
    expect(screen.getByText("We've received your message and will get back to you soon.")).toBeTruthy();
    expect(api.called("POST", "/api/contact").map((c) => c.body)).toEqual([
      { name: "Casey Visitor", email: "casey@example.test", subject: "Service area", message: "Do you cover Baltimore?" },
    ]);
    for (const label of [/^Name/, /^Email/, /^Subject/, /^Message/]) expect(field(label).value).toBe("");
  });

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
