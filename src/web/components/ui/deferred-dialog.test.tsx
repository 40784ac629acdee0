// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { DeferredDialog, deferredPart } from "./deferred-dialog";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "./dialog";
import { Button } from "./button";
import type { DeferredOverlay } from "./use-deferred-overlay";

// The one deferred-loading component (docs/decisions/041-forms-loaded-on-first-use.md): nothing of
// the overlay before the trigger is reached, its chunk fetched on pointer or focus, shown at the
// press, and focus back on the trigger when it closes.

function Greeting({ overlay, name }: { overlay: DeferredOverlay; name: string }) {
  return (
    <Dialog open={overlay.open} onOpenChange={overlay.setOpen}>
      <DialogContent onCloseAutoFocus={overlay.returnFocus}>
        <DialogTitle>Hello {name}</DialogTitle>
        <DialogDescription>A dialog loaded on first use.</DialogDescription>
      </DialogContent>
    </Dialog>
  );
}

function setup(onOpen?: () => void) {
  const load = vi.fn(async () => ({ Greeting }));
  const part = deferredPart(load, (module) => module.Greeting);
  render(
    <>
      <Button>Before</Button>
      <DeferredDialog part={part} trigger={<Button variant="secondary">Say hello</Button>} {...(onOpen ? { onOpen } : {})}>
        {(overlay) => <part.Component overlay={overlay} name="Ada" />}
      </DeferredDialog>
    </>,
  );
  return { load, trigger: screen.getByRole("button", { name: "Say hello" }) };
}

describe("DeferredDialog", () => {
  it("loads nothing until the pointer reaches the trigger, then fetches without opening", async () => {
    const user = userEvent.setup();
    const { load, trigger } = setup();
    expect(load).not.toHaveBeenCalled();
    expect(trigger.getAttribute("aria-haspopup")).toBe("dialog");
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    await user.hover(trigger);
    expect(load).toHaveBeenCalled();
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("fetches on keyboard focus, opens at the press and puts focus back on the trigger when closed", async () => {
    const user = userEvent.setup();
    const { load, trigger } = setup();
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(trigger);
    expect(load).toHaveBeenCalled();
    await user.keyboard("{Enter}");
    expect(await screen.findByRole("dialog", { name: "Hello Ada" }, { timeout: 10_000 })).toBeTruthy();
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    await user.keyboard("{Escape}");
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.activeElement).toBe(trigger);
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
  });

  it("tells onOpen at each press that opens it, not when it closes", async () => {
    const user = userEvent.setup();
    const onOpen = vi.fn();
    const { trigger } = setup(onOpen);
    await user.click(trigger);
    expect(await screen.findByRole("dialog", { name: "Hello Ada" }, { timeout: 10_000 })).toBeTruthy();
    expect(onOpen).toHaveBeenCalledTimes(1);
    await user.keyboard("{Escape}");
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(trigger);
    await screen.findByRole("dialog", { name: "Hello Ada" });
    expect(onOpen).toHaveBeenCalledTimes(2);
  });
});
