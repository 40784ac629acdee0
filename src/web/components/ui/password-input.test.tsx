// @vitest-environment jsdom
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useForm } from "react-hook-form";
import { describe, expect, it, vi } from "vitest";
import { FormField } from "@/components/ui/form-field";
import { PasswordInput } from "./password-input";
import { PasswordStrength } from "./password-strength";

function Form({ onSubmit }: { onSubmit: (values: { password: string }) => void }) {
  const form = useForm({ defaultValues: { password: "" } });
  return (
    <form onSubmit={form.handleSubmit(onSubmit)}>
      <FormField label="Password" description="At least 10 characters.">
        <PasswordInput autoComplete="new-password" {...form.register("password")} />
      </FormField>
      <button type="submit">Save</button>
    </form>
  );
}

describe("PasswordInput", () => {
  it("hides the password until the toggle is pressed, keeps typing in the field, and works with register", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Form onSubmit={onSubmit} />);

    const field = screen.getByLabelText("Password", { selector: "input" });
    const toggle = screen.getByRole("button", { name: "Show password" });
    expect(field).toHaveProperty("type", "password");
    expect(field.getAttribute("aria-describedby")).toBeTruthy();
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    expect(toggle.getAttribute("aria-controls")).toBe(field.id);

    await user.type(field, "orchid kettle");
    await user.click(toggle);
    expect(field).toHaveProperty("type", "text");
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    // A pointer press leaves the focus in the field, so typing goes on where it was.
    expect(document.activeElement).toBe(field);
    await user.keyboard(" planet");

    // From the keyboard the focus stays on the toggle, which hides the text again.
    toggle.focus();
    await user.keyboard("{Enter}");
    expect(field).toHaveProperty("type", "password");
    expect(document.activeElement).toBe(toggle);

    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ password: "orchid kettle planet" });
  });
});

describe("PasswordStrength", () => {
  it("says in words how strong the password is, with zxcvbn's warning, and the same rule as the server", async () => {
    const owner = { email: "margaret.whitfield@example.test", firstName: "Margaret", lastName: "Whitfield" };
    const { rerender } = render(<PasswordStrength password="short" owner={owner} />);
    expect(screen.getByRole("status").textContent).toMatch(/Too weak.*Use at least 10 characters/);

    rerender(<PasswordStrength password="password1234" owner={owner} />);
    await waitFor(() => expect(screen.getByRole("status").textContent).toMatch(/This is similar to a commonly used password/), { timeout: 5000 });
    expect(screen.getByRole("status").textContent).toMatch(/Password strength: Too weak/);
    expect(screen.getByRole("status").textContent).toMatch(/Not strong enough yet/);

    rerender(<PasswordStrength password="margaretwhitfield" owner={owner} />);
    await waitFor(() => expect(screen.getByRole("status").textContent).toMatch(/should not contain your name/));

    rerender(<PasswordStrength password="orchid kettle planet" owner={owner} />);
    await waitFor(() => expect(screen.getByRole("status").textContent).toMatch(/Password strength: Strong/));
    expect(screen.getByRole("status").textContent).not.toMatch(/Not strong enough/);
  });

  it("shows nothing for an empty field", () => {
    const { container } = render(<PasswordStrength password="" />);
    expect(container.textContent).toBe("");
  });
});
