import { lazy, Suspense, type ReactNode } from "react";
import type { Message } from "@shared/chat";
import type { TaskDetail } from "@shared/tasks";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useUser } from "@/lib/current-user";
import { ChatCard, type ChatPartner } from "./chat-card";

// The conversation (its messages, the live socket, the message list; its form, with react-hook-form
// and zod, loads later still, at first use) is its own chunk: only the task's two parties see it,
// and the task page a visitor opens from a shared link needs none of it (issue 17,
// docs/decisions/041-forms-loaded-on-first-use.md and 042-landing-under-90-kb.md).
const TaskChatConversation = lazy(() => import("./task-chat-conversation").then((m) => ({ default: m.TaskChatConversation })));

function ChatNotice({ children }: { children: ReactNode }) {
  return <p className="flex flex-1 items-center justify-center px-6 text-center text-sm text-muted-foreground">{children}</p>;
}

/**
 * The task's chat card (docs/product.md#chat-and-notifications): 500px, Task Messages, Connected/Offline.
 * `reportMessage` draws the Report control beside each of the other person's messages. `closedLine`
 * is why the chat is closed, from the task's account (a cancelled task's outcome, an offer not
 * chosen): the page reads it from statementWords, as every other sentence about the money;
 * `closedLinePending` while that account is coming, so a passed-over offerer is not first told
 * they may not view the chat.
 */
export function TaskChatPanel({
  task,
  reportMessage,
  closedLine = null,
  closedLinePending = false,
}: {
  task: TaskDetail;
  reportMessage?: (message: Message) => ReactNode;
  closedLine?: string | null;
  closedLinePending?: boolean;
}) {
  const { user } = useUser();
  const hasProvider = task.providerId !== null;
  const isParticipant = user !== null && (user.id === task.userId || user.id === task.providerId);

  if (!hasProvider) {
    return (
      <ChatCard connected={false}>
        <ChatNotice>Chat will be available once a provider claims this task</ChatNotice>
      </ChatCard>
    );
  }
  if (!isParticipant && user?.isAdmin) {
    // Admins do not write in the parties' chat (the server refuses it, docs/decisions/010): no
    // Offline or refusal here, but where an admin does write to both.
    return (
      <Card>
        <CardHeader>
          <CardTitle asChild className="text-lg">
            <h2>Task Messages</h2>
          </CardTitle>
          <CardDescription>
            Only the poster and the provider write in this chat. To write to both of them about a reported problem, add a note in the problem&apos;s
            thread on this page.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }
  if (!isParticipant) {
    return (
      <ChatCard connected={false} closed={closedLine !== null}>
        {closedLinePending ? (
          <div className="flex flex-1 items-center justify-center">
            <Spinner />
          </div>
        ) : (
          <ChatNotice>{closedLine ?? "You don't have permission to view this chat"}</ChatNotice>
        )}
      </ChatCard>
    );
  }
  const partner: ChatPartner | null =
    user?.id === task.userId
      ? task.provider && { id: task.provider.id, displayName: task.provider.displayName, photoUrl: task.provider.profilePhotoUrl }
      : task.poster;
  return (
    // The same card, offline, while its chunk loads: nothing moves when the conversation arrives.
    <Suspense
      fallback={
        <ChatCard connected={false} closed={task.status === "cancelled"} partner={partner}>
          <div className="flex flex-1 items-center justify-center">
            <Spinner />
          </div>
        </ChatCard>
      }
    >
      <TaskChatConversation task={task} myId={user?.id ?? ""} partner={partner} reportMessage={reportMessage} closedLine={closedLine} />
    </Suspense>
  );
}
