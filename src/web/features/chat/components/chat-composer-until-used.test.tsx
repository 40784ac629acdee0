// @vitest-environment jsdom
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ChatComposer } from "./chat-composer";
import { ChatComposerUntilUsed } from "./chat-composer-until-used";

// The chat's form loads when the message box is first focused (issue 17); what a person does in the
// box drawn meanwhile must carry over to the form that replaces it.

const messageBox = () => screen.getByRole<HTMLTextAreaElement>("textbox", { name: "Message" });

/** A person reaching the box drawn before the form loaded (which starts loading it), and typing `text`. */
function typeInto(box: HTMLTextAreaElement, text: string) {
  act(() => box.focus());
  fireEvent.change(box, { target: { value: text } });
}

describe("ChatComposerUntilUsed", () => {
  it("sends an Enter pressed before the form loaded, once, with what was typed, and keeps the focus", async () => {
    const onSend = vi.fn(async () => true);
    render(<ChatComposerUntilUsed onSend={onSend} sending={false} />);
    const drawn = messageBox();
    typeInto(drawn, "On my way");
    fireEvent.keyDown(drawn, { key: "Enter" });

    await waitFor(() => expect(onSend).toHaveBeenCalledWith("On my way"));
    expect(onSend).toHaveBeenCalledTimes(1);
    const form = messageBox();
    expect(form).not.toBe(drawn);
    expect(document.activeElement).toBe(form);
    await waitFor(() => expect(form.value).toBe(""));
  });

  it("carries a draft over without sending it, the caret after the text", async () => {
    const onSend = vi.fn(async () => true);
    render(<ChatComposerUntilUsed onSend={onSend} sending={false} />);
    const drawn = messageBox();
    expect(screen.getByRole("button", { name: "Send message" }).hasAttribute("disabled")).toBe(true);
    typeInto(drawn, "Running late\nabout 10 min");
    expect(screen.getByRole("button", { name: "Send message" }).hasAttribute("disabled")).toBe(false);

    await waitFor(() => expect(messageBox()).not.toBe(drawn));
    const form = messageBox();
    expect(form.value).toBe("Running late\nabout 10 min");
    expect(document.activeElement).toBe(form);
    expect(form.selectionStart).toBe(form.value.length);
    expect(onSend).not.toHaveBeenCalled();
  });

  it("takes what was typed between its render and its commit, and the focus in that commit", async () => {
    const onSend = vi.fn(async () => true);
    const old = document.createElement("textarea");
    document.body.append(old);
    old.value = "On my way\n";
    old.focus();
    // Renders after the form and before the commit, as a key pressed meanwhile lands in the old box.
    function KeyPressedMeanwhile() {
      old.value += "E";
      return null;
    }
    render(
      <>
        <ChatComposer onSend={onSend} sending={false} handOver={{ box: { current: old }, sendAsked: { current: true } }} />
        <KeyPressedMeanwhile />
      </>,
    );
    // In the same commit, not on a timer: a key pressed next must not land on the page.
    expect(document.activeElement).toBe(messageBox());
    expect(messageBox().selectionStart).toBe("On my way\nE".length);

    await waitFor(() => expect(onSend).toHaveBeenCalledWith("On my way\nE"));
    old.remove();
  });

  it("keeps the text and says what to do when the form cannot load, and tries again at the next send", async () => {
    let offline = true;
    vi.resetModules();
    vi.doMock("./chat-composer", async (importOriginal) => {
      if (offline) throw new Error("Failed to fetch dynamically imported module");
      return importOriginal();
    });
    try {
      // The module graph afresh, so that this component imports the form through the mock above.
      const { ChatComposerUntilUsed: Fresh } = await import("./chat-composer-until-used");
      const { renderWithApp } = await import("@/testing/render");
      const onSend = vi.fn(async () => true);
      renderWithApp(<Fresh onSend={onSend} sending={false} />);
      const box = messageBox();
      typeInto(box, "Gate code 4521");
      fireEvent.keyDown(box, { key: "Enter" });

      expect(await screen.findByText("The chat could not load. Check your connection and press Send again, or reload the page.")).toBeTruthy();
      expect(box.value).toBe("Gate code 4521");
      expect(onSend).not.toHaveBeenCalled();

      offline = false;
      vi.resetModules();
      fireEvent.click(screen.getByRole("button", { name: "Send message" }));
      await waitFor(() => expect(onSend).toHaveBeenCalledWith("Gate code 4521"));
      expect(onSend).toHaveBeenCalledTimes(1);
    } finally {
      vi.doUnmock("./chat-composer");
      vi.resetModules();
    }
  });
});
