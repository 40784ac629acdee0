// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { offerChangedMessage, type Offer } from "@shared/offers";
import { dispatch } from "@/components/ui/use-toast";
import { fakeApi, renderWithApp } from "@/testing/render";
import { TaskOffers } from "./task-offers";

// The poster accepts the price they were shown; an offer changed since is refused with its new
// price, and the list is read again (docs/decisions/061-offers.md).

const TASK_ID = "00000000-0000-4000-8000-0000000000aa";
const OFFER_ID = "00000000-0000-4000-8000-0000000000bb";

function offerAt(price: number): Offer {
  return {
    id: OFFER_ID,
    taskId: TASK_ID,
    price,
    message: "I can do this carefully.",
    availability: "Saturday morning",
    status: "open",
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    provider: { id: "00000000-0000-4000-8000-000000000002", displayName: "Sam P.", profilePhotoUrl: null, rating: null, reviewCount: 0, completedTasks: 0 },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  dispatch({ type: "REMOVE_TOAST" });
});

describe("TaskOffers, the poster accepting", () => {
  it("sends the price shown, and when the offer changed says its new price and shows it", async () => {
    // The provider raised the offer to $999 after the page showed $20.
    let offered = 20;
    const api = fakeApi({
      [`GET /api/tasks/${TASK_ID}/offers`]: () => ({ body: { offers: [offerAt(offered)] } }),
      [`POST /api/tasks/${TASK_ID}/offers/${OFFER_ID}/accept`]: () => {
        offered = 999;
        return { status: 409, body: { message: offerChangedMessage(99_900) } };
      },
    });
    const user = userEvent.setup();
    renderWithApp(
      <TaskOffers
        task={{ id: TASK_ID, urgency: "standard" }}
        isPoster
        canOffer={false}
        providerCard={(_provider, title, actions) => (
          <section>
            <h3>{title}</h3>
            {actions}
          </section>
        )}
        felix={() => null}
        felixForPrice={() => null}
      />,
    );
    await user.click(await screen.findByRole("button", { name: "Accept $20 offer" }));
    await user.click(await screen.findByRole("button", { name: /^Accept and pay / }, { timeout: 10_000 }));

    expect(await screen.findByText("This offer changed to $999.00 since you opened it. Look at it again before accepting.")).toBeTruthy();
    expect(api.called("POST", `/api/tasks/${TASK_ID}/offers/${OFFER_ID}/accept`).map((c) => c.body)).toEqual([{ price: 20 }]);
    // The offers were read again: the poster now sees the price they would accept.
    expect(await screen.findByRole("button", { name: "Accept $999 offer" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Accept $20 offer" })).toBeNull();
  });
});
