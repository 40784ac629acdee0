import { useState, type FormEvent, type KeyboardEvent } from "react";
import { Send } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { CHAT_MESSAGE_MAX_LENGTH } from "@shared/constants";

/** Enter sends, Shift+Enter adds a newline; only non-empty text after trimming is sent (spec §5). */
export function ChatComposer({ onSend, sending }: { onSend: (content: string) => Promise<boolean>; sending: boolean }) {
  const [draft, setDraft] = useState("");
  const content = draft.trim();

  const submit = async () => {
    if (!content || sending) return;
    if (await onSend(content)) setDraft("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  return (
    <form onSubmit={onSubmit} className="flex items-end gap-2 border-t p-3">
      <Textarea
        aria-label="Message"
        placeholder="Type a message..."
        value={draft}
        maxLength={CHAT_MESSAGE_MAX_LENGTH}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        rows={2}
        className="min-h-0 flex-1 resize-none"
      />
      <Button type="submit" size="icon" aria-label="Send message" disabled={!content || sending}>
        <Send className="size-4" aria-hidden="true" />
      </Button>
    </form>
  );
}
