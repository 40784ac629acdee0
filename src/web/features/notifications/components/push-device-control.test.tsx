// @vitest-environment jsdom
import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fakeApi, renderWithApp } from "@/testing/render";
import { PUSH_SERVICE_TIMEOUT_MS } from "../hooks/use-push-device";
import { PushDeviceControl } from "./push-device-control";

// "Turn on" when the browser's push service cannot be reached (issue 41): the person is told so in
// plain words and may press the button again, whether the service refuses or never answers.

const TURN_ON = "Turn on notifications on this device";

/** A browser with push whose push service answers `subscribe` as given; permission is granted at the prompt. */
function browserWithPush(subscribe: () => Promise<PushSubscription>) {
  const registration = { pushManager: { subscribe: vi.fn(subscribe), getSubscription: vi.fn(async () => null) } };
  vi.stubGlobal("navigator", {
    ...navigator,
    serviceWorker: {
      register: vi.fn(async () => registration),
      ready: Promise.resolve(registration),
      getRegistration: vi.fn(async () => registration),
    },
  });
  vi.stubGlobal("PushManager", class {});
  vi.stubGlobal("Notification", { permission: "default", requestPermission: vi.fn(async () => "granted") });
  fakeApi({ "GET /api/push/key": { body: { publicKey: "BPublicKeyForTests" } } });
  return registration;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("PushDeviceControl, turning on", () => {
  it("says the push service could not be reached and gives the button back when it refuses", async () => {
    browserWithPush(() => Promise.reject(new DOMException("Registration failed - push service error", "AbortError")));
    const user = userEvent.setup();
    renderWithApp(<PushDeviceControl />);
    await user.click(await screen.findByRole("button", { name: TURN_ON }));

    expect((await screen.findByRole("alert")).textContent).toMatch(/^This browser could not reach its push service.*Check your connection and press the button again/);
    expect(screen.getByRole("button", { name: TURN_ON }).hasAttribute("disabled")).toBe(false);
  });

  it("stops waiting after PUSH_SERVICE_TIMEOUT_MS when the push service never answers", async () => {
    // The hang is a subscribe that never settles; the clock is faked, so the test does not wait 20 s.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const registration = browserWithPush(() => new Promise<PushSubscription>(() => undefined));
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    renderWithApp(<PushDeviceControl />);
    await user.click(await screen.findByRole("button", { name: TURN_ON }));
    await vi.waitFor(() => expect(registration.pushManager.subscribe).toHaveBeenCalled());
    // Waiting: greyed while the browser works, with nothing said yet.
    expect(screen.getByRole("button", { name: TURN_ON }).hasAttribute("disabled")).toBe(true);
    expect(screen.queryByRole("alert")).toBeNull();

    await act(async () => {
      await vi.advanceTimersByTimeAsync(PUSH_SERVICE_TIMEOUT_MS);
    });
    expect((await screen.findByRole("alert")).textContent).toMatch(/^This browser could not reach its push service/);
    expect(screen.getByRole("button", { name: TURN_ON }).hasAttribute("disabled")).toBe(false);
  });
});
