// @vitest-environment jsdom
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MobileScrollButtons } from "./mobile-scroll-buttons";

// The phone's scroll buttons (docs/product.md#web-app) must not hide what cannot be scrolled out
// from under them (issue 41): only the one that can move the page shows, the page ends with room
// for them, and they step aside while a field is typed in. jsdom has no layout, so the page's
// height, the window's and the scroll position are set by hand.

const VIEWPORT = 800;

function pageOf(height: number, scrollY = 0) {
  Object.defineProperty(document.documentElement, "scrollHeight", { configurable: true, value: height });
  Object.defineProperty(window, "innerHeight", { configurable: true, value: VIEWPORT });
  Object.defineProperty(window, "scrollY", { configurable: true, value: scrollY });
}

function scrollTo(scrollY: number) {
  act(() => {
    Object.defineProperty(window, "scrollY", { configurable: true, value: scrollY });
    fireEvent.scroll(window);
  });
}

const up = () => screen.queryByRole("button", { name: "Scroll up" });
const down = () => screen.queryByRole("button", { name: "Scroll down" });

beforeEach(() => pageOf(3 * VIEWPORT));
afterEach(() => pageOf(0));

describe("MobileScrollButtons", () => {
  it("shows only the button that can move the page, and ends the page with room for them", () => {
    render(<MobileScrollButtons />);
    // At the top there is nothing above: Down alone.
    expect(down()).not.toBeNull();
    expect(up()).toBeNull();
    expect(screen.getByTestId("scroll-buttons-spacer").className).toMatch(/\bh-16\b/);

    scrollTo(VIEWPORT);
    expect(up()).not.toBeNull();
    expect(down()).not.toBeNull();

    // At the bottom: Up alone, over the spacer rather than the page's last lines.
    scrollTo(2 * VIEWPORT);
    expect(up()).not.toBeNull();
    expect(down()).toBeNull();
  });

  it("steps aside while a field is typed in, and comes back after", () => {
    render(
      <>
        <textarea aria-label="Message" />
        <MobileScrollButtons />
      </>,
    );
    scrollTo(VIEWPORT);
    expect(down()).not.toBeNull();
    act(() => screen.getByRole("textbox", { name: "Message" }).focus());
    expect(up()).toBeNull();
    expect(down()).toBeNull();
    act(() => screen.getByRole("textbox", { name: "Message" }).blur());
    expect(down()).not.toBeNull();
  });

  it("shows nothing, and adds no room, on a page of one screenful", () => {
    pageOf(VIEWPORT);
    render(<MobileScrollButtons />);
    expect(up()).toBeNull();
    expect(down()).toBeNull();
    expect(screen.queryByTestId("scroll-buttons-spacer")).toBeNull();
  });
});
