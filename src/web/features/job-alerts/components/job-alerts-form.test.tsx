// @vitest-environment jsdom
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { JobAlert } from "@shared/job-alerts";
import { NEAR_MESSAGE } from "@shared/task-filters";
import { fakeApi, renderWithApp } from "@/testing/render";
import { JobAlertsForm } from "./job-alerts-form";

// The job alerts list (docs/product.md#job-alerts): edited as one list, judged by the shared schema
// before anything is sent, the server's refusals shown under the field they name.

const saved: JobAlert = { id: "00000000-0000-4000-8000-0000000000a1", categories: ["pet"], near: "21401", radiusMiles: 10, minBudget: 20 };

afterEach(() => vi.unstubAllGlobals());

describe("JobAlertsForm", () => {
  it("shows each problem under its field and sends nothing", async () => {
    const api = fakeApi({});
    renderWithApp(<JobAlertsForm alerts={[]} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Add an alert" }));
    const alert = screen.getByRole("group", { name: "Alert 1" });
    await user.type(within(alert).getByLabelText(/ZIP code or lat,lon/), "Annapolis");
    await user.type(within(alert).getByLabelText("Lowest budget ($)"), "-3");
    await user.click(screen.getByRole("button", { name: "Save alerts" }));
    expect(await within(alert).findByText("Choose at least one category")).toBeTruthy();
    expect(within(alert).getByText(NEAR_MESSAGE)).toBeTruthy();
    expect(within(alert).getByText("minBudget must be 0 or more")).toBeTruthy();
    expect(within(alert).getByLabelText(/ZIP code or lat,lon/).getAttribute("aria-invalid")).toBe("true");
    expect(api.calls).toEqual([]);
  });

  it("saves the edited list whole, removals included, and puts the server's refusal under its field", async () => {
    const api = fakeApi({
      "PUT /api/alerts": {
        status: 400,
        body: { message: "We don't know the ZIP code 00000. Check it, or use a nearby one.", fieldErrors: { "alerts.0.near": "We don't know the ZIP code 00000. Check it, or use a nearby one." } },
      },
    });
    renderWithApp(<JobAlertsForm alerts={[saved, { ...saved, id: "00000000-0000-4000-8000-0000000000a2", near: "21402" }]} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Remove alert 2" }));
    const first = screen.getByRole("group", { name: "Alert 1" });
    await user.click(within(first).getByLabelText("Moving & Transport"));
    const near = within(first).getByLabelText(/ZIP code or lat,lon/);
    await user.clear(near);
    await user.type(near, "00000");
    await user.click(screen.getByRole("button", { name: "Save alerts" }));
    await waitFor(() => expect(api.called("PUT", "/api/alerts")).toHaveLength(1));
    expect(api.calls[0]?.body).toEqual({ alerts: [{ categories: ["pet", "moving"], near: "00000", radiusMiles: 10, minBudget: 20 }] });
    expect(await within(first).findByText("We don't know the ZIP code 00000. Check it, or use a nearby one.")).toBeTruthy();
  });

  it("offers no eleventh alert", async () => {
    fakeApi({});
    renderWithApp(<JobAlertsForm alerts={Array.from({ length: 10 }, (_, i) => ({ ...saved, id: `00000000-0000-4000-8000-0000000001${String(i).padStart(2, "0")}` }))} />);
    expect((screen.getByRole("button", { name: "Add an alert" }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/the most you can keep/)).toBeTruthy();
  });
});
