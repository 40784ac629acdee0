import { zodResolver } from "@hookform/resolvers/zod";
import { Send } from "lucide-react";
import type { KeyboardEvent } from "react";
import { useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { chatContentSchema } from "@shared/chat";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { maxLengthOf } from "@/lib/form";

// The message as the server accepts it (src/shared/chat.ts): trimmed, not empty, bounded.
const composerSchema = z.object({ content: chatContentSchema });
type ComposerInput = z.input<typeof composerSchema>;
type ComposerValues = z.output<typeof composerSchema>;

/** Enter sends, Shift+Enter adds a newline; only non-empty text after trimming is sent (docs/product.md#chat-and-notifications). */
export function ChatComposer({ onSend, sending }: { onSend: (content: string) => Promise<boolean>; sending: boolean }) {
  const form = useForm<ComposerInput, unknown, ComposerValues>({ resolver: zodResolver(composerSchema), defaultValues: { content: "" } });
  const draft = useWatch({ control: form.control, name: "content" });
  const error = form.formState.errors.content?.message;

  const submit = form.handleSubmit(async ({ content }) => {
    if (sending) return;
    if (await onSend(content)) form.reset({ content: "" });
  });

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
          {...form.register("content")}
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
