import type { ReactNode } from "react";
import { Link } from "wouter";
import { Card, CardHeader, CardTitle } from "@/components/ui/card";
import { PersonAvatar } from "@/components/ui/person-avatar";
import { cn } from "@/lib/cn";
import { userProfilePath } from "@/lib/profile-path";

/** The other party of the chat, shown in its header and linked to their public profile. */
export interface ChatPartner {
  id: string;
  displayName: string;
  photoUrl: string | null;
}

/**
 * The chat's 500px card: Task Messages, with whom, Connected/Offline, or Closed once the task is
 * cancelled, when nobody can send (docs/product.md#chat-and-notifications).
 */
export function ChatCard({
  connected,
  closed = false,
  partner,
  children,
}: {
  connected: boolean;
  closed?: boolean;
  partner?: ChatPartner | null;
  children: ReactNode;
}) {
  return (
    <Card className="flex h-[500px] flex-col">
      <CardHeader className="flex-row items-center justify-between gap-2 space-y-0 pb-3">
        <div className="flex min-w-0 items-center gap-3">
          {partner ? <PersonAvatar name={partner.displayName} photoUrl={partner.photoUrl} className="size-9" /> : null}
          <div className="grid min-w-0">
            <CardTitle asChild className="text-lg">
              <h2>Task Messages</h2>
            </CardTitle>
            {partner ? (
              <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
                with{" "}
                <Link href={userProfilePath(partner.id)} className="font-medium text-foreground hover:underline">
                  {partner.displayName}
                </Link>
              </p>
            ) : null}
          </div>
        </div>
        <span role="status" className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <span aria-hidden="true" className={cn("size-2 rounded-full", connected && !closed ? "bg-green-600" : "bg-muted-foreground")} />
          {closed ? "Closed" : connected ? "Connected" : "Offline"}
        </span>
      </CardHeader>
      {children}
    </Card>
  );
}
