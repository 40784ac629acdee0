import { zodResolver } from "@hookform/resolvers/zod";
import { Send } from "lucide-react";
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { chatContentSchema } from "@shared/chat";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";

// The message as the server accepts it (src/shared/chat.ts): trimmed, not empty, bounded.
const composerSchema = z.object({ content: chatContentSchema });
type ComposerInput = z.input<typeof composerSchema>;
type ComposerValues = z.output<typeof composerSchema>;

/** The box drawn before this form loaded (chat-composer-until-used.tsx), and what was asked of it. */
export interface HandOver {
  /** Still the last box drawn after it leaves the page, so it keeps all that was typed. */
  box: RefObject<HTMLTextAreaElement | null>;
  /** Send was asked for (Enter or the button) while this form loaded. */
  sendAsked: RefObject<boolean>;
}

export interface ChatComposerProps {
  onSend: (content: string) => Promise<boolean>;
  sending: boolean;
  handOver?: HandOver;
}

/** Enter sends, Shift+Enter adds a newline; only non-empty text after trimming is sent (docs/product.md#chat-and-notifications). */
export function ChatComposer({ onSend, sending, handOver }: ChatComposerProps) {
  // Whether the box had the focus is known only while it is on the page, as this form first renders.
  const [boxFocused] = useState(() => handOver !== undefined && handOver.box.current === document.activeElement);
  const form = useSchemaForm<ComposerInput, ComposerValues>({ resolver: zodResolver(composerSchema), defaultValues: { content: "" } });
  const draft = useWatch({ control: form.control, name: "content" });
  const error = form.formState.errors.content?.message;

  const submit = form.handleSubmit(async ({ content }) => {
    if (sending) return;
    if (await onSend(content)) form.reset({ content: "" });
  });

  // In the commit that swaps the boxes: the old one holds every key pressed until it leaves the page,
  // and this one has the focus before the next key is handled.
  const handedOver = useRef(false);
  const textarea = useRef<HTMLTextAreaElement | null>(null);
  const { ref: registerBox, ...contentField } = form.register("content");
  useLayoutEffect(() => {
    if (!handOver || handedOver.current) return;
    handedOver.current = true;
    const typed = handOver.box.current?.value ?? "";
    if (typed !== "") form.setValue("content", typed);
    // Not form.setFocus: it focuses on a timer, and a key pressed before that went to the page (the
    // chat journey lost an Enter and a letter this way when the form loaded mid-typing).
    const box = textarea.current;
    if (boxFocused && box) {
      box.focus();
      box.setSelectionRange(box.value.length, box.value.length);
    }
    if (handOver.sendAsked.current && typed.trim() !== "") void submit();
  }, [form, handOver, boxFocused, submit]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      // An empty draft is not an error worth showing: Enter simply does nothing.
      if (draft.trim() !== "") void submit();
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="grid gap-1 border-t p-3">
      <div className="flex items-end gap-2">
        <Textarea
          aria-label="Message"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "chat-composer-error" : undefined}
          placeholder="Type a message..."
          maxLength={maxLengthOf(chatContentSchema)}
          onKeyDown={onKeyDown}
          rows={2}
          className="min-h-0 flex-1 resize-none"
          {...contentField}
          ref={(element) => {
            registerBox(element);
            textarea.current = element;
          }}
        />
        <Button type="submit" size="icon" aria-label="Send message" disabled={draft.trim() === "" || sending}>
          <Send className="size-4" aria-hidden="true" />
        </Button>
      </div>
      {error ? (
        <p id="chat-composer-error" className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </form>
  );
}
