import { Send } from "lucide-react";
import { useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { CHAT_MESSAGE_MAX_LENGTH } from "@shared/constants";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import type { ChatComposer, ChatComposerProps, HandOver } from "./chat-composer";

// The composer's form (react-hook-form and zod) loads when someone first reaches for the message box,
// not with the task page: it was most of the 39 KB by which a claimed task's page was over issue 17's
// 130 KB (docs/decisions/042-landing-under-90-kb.md). Until then this box, drawn the same, takes the
// typing; the form takes over with what was typed, the focus, and a send already asked for.
const loadComposer = () => import("./chat-composer");

type Props = Pick<ChatComposerProps, "onSend" | "sending">;

export function ChatComposerUntilUsed(props: Props) {
  const [Composer, setComposer] = useState<typeof ChatComposer | null>(null);
  const [hasText, setHasText] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const sendAsked = useRef(false);
  const handOver = useMemo<HandOver>(() => ({ box, sendAsked }), []);
  const loading = useRef(false);

  const load = () => {
    if (loading.current) return;
    loading.current = true;
    loadComposer().then(
      (module) => setComposer(() => module.ChatComposer),
      () => {
        // Offline or a new deploy: the next focus or send tries again, and the text stays in the box.
        loading.current = false;
        if (!sendAsked.current) return;
        sendAsked.current = false;
        toast({ title: "Message not sent", description: "The chat could not load. Check your connection and press Send again, or reload the page.", variant: "destructive" });
      },
    );
  };
  const askToSend = () => {
    sendAsked.current = true;
    load();
  };

  if (Composer) return <Composer {...props} handOver={handOver} />;
  // Not let go when the box leaves the page: the form reads what it holds as it replaces it.
  const keepBox = (element: HTMLTextAreaElement | null) => {
    if (element) box.current = element;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (event.currentTarget.value.trim() !== "") askToSend();
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    askToSend();
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-1 border-t p-3">
      <div className="flex items-end gap-2">
        <Textarea
          ref={keepBox}
          aria-label="Message"
          placeholder="Type a message..."
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          rows={2}
          className="min-h-0 flex-1 resize-none"
          onFocus={load}
          onPointerEnter={load}
          onKeyDown={onKeyDown}
          onChange={(event) => setHasText(event.target.value.trim() !== "")}
        />
        <Button type="submit" size="icon" aria-label="Send message" disabled={!hasText || props.sending}>
          <Send className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </form>
  );
}
