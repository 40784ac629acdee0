// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderWithApp, type ApiCall } from "@/testing/render";
import { PostTaskDialog } from "./post-task-dialog";
import { POST_TASK_DRAFT_KEY } from "./post-task-draft";

const USER = {
  id: "00000000-0000-4000-8000-000000000001",
  email: "pat@example.test",
  firstName: "Pat",
  lastName: "Poster",
  first_name: "Pat",
  last_name: "Poster",
  name: "Pat Poster",
  profileImageUrl: null,
  role: "user",
  isAdmin: false,
  createdAt: "2026-01-01T00:00:00.000Z",
};

let api: ReturnType<typeof fakeApi>;

beforeEach(() => {
  window.localStorage.clear();
  api = fakeApi({
    "GET /api/auth/user": { body: USER },
    "GET /api/geocode": { body: [] },
    "POST /api/tasks": (call: ApiCall) => ({ status: 201, body: { id: "00000000-0000-4000-8000-0000000000aa", ...(call.body as object) } }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function openWizard() {
  const onOpenChange = vi.fn();
  const { unmount } = renderWithApp(<PostTaskDialog open onOpenChange={onOpenChange} />);
  const dialog = screen.getByRole("dialog", { name: "Post a Task" });
  return { dialog, onOpenChange, d: within(dialog), unmount };
}

/** The validation message tied to a control through aria-describedby, or null. */
function errorOf(control: HTMLElement): string | null {
  if (control.getAttribute("aria-invalid") !== "true") return null;
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ");
  return ids.map((id) => document.getElementById(id)).find((el) => el?.id.endsWith("-error"))?.textContent ?? null;
}

/**
 * Puts text into a field in one input event, as a paste does: typing each letter re-renders the
 * whole wizard per key, which made this the slowest unit file (30 s); the rules under test are
 * the fields', not the keyboard's.
 */
async function enter(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

async function fillDetails(user: ReturnType<typeof userEvent.setup>, d: ReturnType<typeof within>) {
  await enter(user, d.getByRole("textbox", { name: "Task Title" }), "Deliver binders");
  await enter(user, d.getByRole("textbox", { name: "Description" }), "Twelve binders from the copy shop");
  await user.click(d.getByRole("combobox", { name: "Category" }));
  await user.click(await screen.findByRole("option", { name: "Delivery Services" }));
}

// Typing through a three-step dialog takes seconds on a busy two-core machine.
describe("Post a Task wizard", { timeout: 30_000 }, () => {
  it("keeps step 1 on Next until its fields pass the server's schema, with each error under its field", async () => {
    const user = userEvent.setup({ delay: null });
    const { d } = openWizard();
    expect(d.getByText("Step 1 of 3: Task Details")).toBeTruthy();

    await user.click(d.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(errorOf(d.getByRole("textbox", { name: "Task Title" }))).toBe("Title must be at least 3 characters"));
    expect(errorOf(d.getByRole("textbox", { name: "Description" }))).toBe("Description is required");
    expect(errorOf(d.getByRole("combobox", { name: "Category" }))).toBe("Category must be one of the listed categories");
    expect(d.getByText("Step 1 of 3: Task Details")).toBeTruthy();

    await enter(user, d.getByRole("textbox", { name: "Task Title" }), "Go");
    await user.click(d.getByRole("button", { name: "Next" }));
    expect(d.getByText("Step 1 of 3: Task Details")).toBeTruthy();
    await user.clear(d.getByRole("textbox", { name: "Task Title" }));

    await fillDetails(user, d);
    await waitFor(() => expect(errorOf(d.getByRole("combobox", { name: "Category" }))).toBeNull());
    expect(errorOf(d.getByRole("textbox", { name: "Task Title" }))).toBeNull();
    await user.click(d.getByRole("button", { name: "Next" }));
    expect(await d.findByText("Step 2 of 3: Location & Budget")).toBeTruthy();
  });

  it("blocks step 2 on a budget under the minimum and on a missing location, then posts the task", async () => {
    const user = userEvent.setup({ delay: null });
    const { d, onOpenChange } = openWizard();
    await fillDetails(user, d);
    await user.click(d.getByRole("button", { name: "Next" }));
    await d.findByText("Step 2 of 3: Location & Budget");

    const budget = d.getByRole("spinbutton", { name: "Budget ($)" });
    await enter(user, budget, "10");
    await waitFor(() => expect(errorOf(budget)).toBe("Minimum budget is $20"));
    expect(d.getByRole("button", { name: "Next" }).hasAttribute("disabled")).toBe(true);

    await user.clear(budget);
    await enter(user, budget, "100");
    await waitFor(() => expect(errorOf(budget)).toBeNull());
    expect(d.getByText("Minimum: $20")).toBeTruthy();
    await user.click(d.getByRole("button", { name: "Next" }));
    const location = d.getByRole("combobox", { name: "Location" });
    await waitFor(() => expect(errorOf(location)).toBe("Location is required"));
    expect(d.getByText("Step 2 of 3: Location & Budget")).toBeTruthy();

    await enter(user, location, "12 Main St");
    await enter(user, d.getByRole("textbox", { name: "Location city" }), "Annapolis");
    await enter(user, d.getByRole("textbox", { name: "Location state" }), "md");
    await user.click(d.getByRole("button", { name: "Next" }));
    await d.findByText("Step 3 of 3: Review");
    expect(d.getByText("12 Main St, Annapolis, MD")).toBeTruthy();

    await user.click(d.getByRole("button", { name: "Post Task" }));
    expect(await screen.findByText("Your task has been posted successfully!")).toBeTruthy();
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(api.called("POST", "/api/tasks").map((c) => c.body)).toEqual([
      expect.objectContaining({
        title: "Deliver binders",
        category: "delivery",
        budget: 100,
        urgency: "standard",
        location: "12 Main St",
        city: "Annapolis",
        state: "MD",
        scheduledDate: null,
      }),
    ]);
  });

  it("asks a route for its end under the End location field", async () => {
    const user = userEvent.setup({ delay: null });
    const { d } = openWizard();
    await fillDetails(user, d);
    await user.click(d.getByRole("button", { name: "Next" }));
    await d.findByText("Step 2 of 3: Location & Budget");

    await user.click(d.getByRole("switch", { name: "Multi-stop route" }));
    await enter(user, d.getByRole("combobox", { name: "Start location" }), "1 Bay Rd");
    await enter(user, d.getByRole("spinbutton", { name: "Budget ($)" }), "40");
    await user.click(d.getByRole("button", { name: "Next" }));

    await waitFor(() => expect(errorOf(d.getByRole("combobox", { name: "End location" }))).toBe("A route needs a start and an end location"));
    expect(errorOf(d.getByRole("combobox", { name: "Start location" }))).toBeNull();
    expect(d.getByText("Step 2 of 3: Location & Budget")).toBeTruthy();
    expect(api.called("POST", "/api/tasks")).toEqual([]);
  });

  async function fillToReview(user: ReturnType<typeof userEvent.setup>, d: ReturnType<typeof within>) {
    await fillDetails(user, d);
    await user.click(d.getByRole("button", { name: "Next" }));
    await d.findByText("Step 2 of 3: Location & Budget");
    await enter(user, d.getByRole("combobox", { name: "Location" }), "12 Main St");
    await enter(user, d.getByRole("spinbutton", { name: "Budget ($)" }), "45");
    await user.click(d.getByRole("button", { name: "Next" }));
    await d.findByText("Step 3 of 3: Review");
  }

  it("puts a server 400 under its field, on its step, focused, and says the rest in plain words", async () => {
    api = fakeApi({
      "GET /api/auth/user": { body: USER },
      "GET /api/geocode": { body: [] },
      "POST /api/tasks": {
        status: 400,
        body: {
          message: "title: Say what is needed in the title; lat: must be a number",
          fieldErrors: { title: "Say what is needed in the title", somethingElse: "must be a number" },
        },
      },
    });
    const user = userEvent.setup({ delay: null });
    const { d } = openWizard();
    await fillToReview(user, d);
    await user.click(d.getByRole("button", { name: "Post Task" }));

    await d.findByText("Step 1 of 3: Task Details");
    const title = d.getByRole("textbox", { name: "Task Title" });
    await waitFor(() => expect(errorOf(title)).toBe("Say what is needed in the title"));
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(await screen.findByText("Must be a number.")).toBeTruthy();
    expect(screen.queryByText(/title: /)).toBeNull();
  });

  it("refuses a date without a time under the Time field and takes an evening time", async () => {
    const user = userEvent.setup({ delay: null });
    const { d } = openWizard();
    await fillDetails(user, d);
    await user.click(d.getByRole("button", { name: "Next" }));
    await d.findByText("Step 2 of 3: Location & Budget");
    await enter(user, d.getByRole("combobox", { name: "Location" }), "12 Main St");
    await enter(user, d.getByRole("spinbutton", { name: "Budget ($)" }), "45");
    const date = d.getByLabelText(/Date Needed/);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const day = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, "0")}-${String(tomorrow.getDate()).padStart(2, "0")}`;
    await user.type(date, day);
    await user.click(d.getByRole("button", { name: "Next" }));
    const time = d.getByLabelText(/^Time/);
    await waitFor(() => expect(errorOf(time)).toBe("Pick a time for this date."));
    expect(date.getAttribute("min")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Errands happen after office hours too (docs/product.md#dates-and-hours).
    await user.type(time, "20:00");
    await user.click(d.getByRole("button", { name: "Next" }));
    await d.findByText("Step 3 of 3: Review");
  });

  it("keeps the draft and its step when the wizard is opened again, and clears it after posting", async () => {
    const user = userEvent.setup({ delay: null });
    const first = openWizard();
    await fillDetails(user, first.d);
    await user.click(first.d.getByRole("button", { name: "Next" }));
    await first.d.findByText("Step 2 of 3: Location & Budget");
    await enter(user, first.d.getByRole("spinbutton", { name: "Budget ($)" }), "45");
    first.unmount();

    const again = openWizard();
    expect(again.d.getByText("Step 2 of 3: Location & Budget")).toBeTruthy();
    expect((again.d.getByRole("spinbutton", { name: "Budget ($)" }) as HTMLInputElement).value).toBe("45");
    await user.click(again.d.getByRole("button", { name: "Back" }));
    expect((again.d.getByRole("textbox", { name: "Task Title" }) as HTMLInputElement).value).toBe("Deliver binders");
    await user.click(again.d.getByRole("button", { name: "Next" }));
    await enter(user, again.d.getByRole("combobox", { name: "Location" }), "12 Main St");
    await user.click(again.d.getByRole("button", { name: "Next" }));
    await again.d.findByText("Step 3 of 3: Review");
    await user.click(again.d.getByRole("button", { name: "Post Task" }));
    expect(await screen.findByText("Your task has been posted successfully!")).toBeTruthy();
    expect(window.localStorage.getItem(POST_TASK_DRAFT_KEY)).toBeNull();
  });

  describe("opened prefilled (Book Again, Request)", () => {
    const bookAgain = {
      title: "Carry boxes to the attic",
      description: "Six boxes, one flight of stairs.",
      category: "moving" as const,
      budget: "30",
      location: { address: "12 Main St", city: "Annapolis", state: "MD", lat: 38.98, lon: -76.52 },
      request: { providerId: "00000000-0000-4000-8000-0000000000b2", providerName: "Sam P.", windowHours: 24, fallback: "open" as const },
    };

    it("leaves the ordinary draft alone: closed, Post a Task opens without the provider, title or description", async () => {
      const user = userEvent.setup({ delay: null });
      const { unmount } = renderWithApp(<PostTaskDialog open onOpenChange={vi.fn()} prefill={bookAgain} />);
      const prefilled = within(screen.getByRole("dialog", { name: "Post a Task" }));
      expect(prefilled.getByText("Requesting Sam P.")).toBeTruthy();
      await user.type(prefilled.getByRole("textbox", { name: "Task Title" }), " again");
      unmount();

      const ordinary = openWizard();
      expect(ordinary.d.queryByText(/Requesting/)).toBeNull();
      expect((ordinary.d.getByRole("textbox", { name: "Task Title" }) as HTMLInputElement).value).toBe("");
      expect((ordinary.d.getByRole("textbox", { name: "Description" }) as HTMLInputElement).value).toBe("");
    });

    it("says whom the task is requested from, and Remove posts it to every provider instead", async () => {
      const user = userEvent.setup({ delay: null });
      renderWithApp(<PostTaskDialog open onOpenChange={vi.fn()} prefill={bookAgain} />);
      const d = within(screen.getByRole("dialog", { name: "Post a Task" }));
      await user.click(d.getByRole("button", { name: /^Remove the request to Sam P\./ }));
      expect(d.queryByText(/Requesting/)).toBeNull();
      await user.click(d.getByRole("button", { name: "Next" }));
      await d.findByText("Step 2 of 3: Location & Budget");
      await user.click(d.getByRole("button", { name: "Next" }));
      await d.findByText("Step 3 of 3: Review");
      await user.click(d.getByRole("button", { name: "Post Task" }));
      expect(await screen.findByText("Your task has been posted successfully!")).toBeTruthy();
      const [posted] = api.called("POST", "/api/tasks");
      expect(posted?.body).toMatchObject({ title: "Carry boxes to the attic" });
      expect(posted?.body).not.toHaveProperty("request");
    });
  });
});
