import { LogOut, Settings } from "lucide-react";
import { Link, useLocation } from "wouter";
import type { User } from "@shared/auth";
import { initials } from "@shared/names";
import { Avatar, AvatarFallback, AvatarImage } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";

// The signed-in person's part of the header: loaded by header.tsx only once the current-user call
// says someone is signed in, so a visitor's first load carries neither Radix Avatar nor these icons
// (issue 17, docs/decisions/042-landing-under-90-kb.md).

function logout() {
  window.location.href = "/api/logout";
}

function UserAvatar({ user }: { user: User }) {
  return (
    <Avatar className="size-9" title={`${user.firstName} ${user.lastName}`}>
      {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" />}
      <AvatarFallback aria-label={`Signed in as ${user.firstName} ${user.lastName}`}>{initials(user)}</AvatarFallback>
    </Avatar>
  );
}

/** Avatar, Settings and Logout beside the bell on a wide screen. */
export function AccountControls({ user }: { user: User }) {
  const [location] = useLocation();
  return (
    <>
      <UserAvatar user={user} />
      <Button asChild variant="ghost" size="sm">
        <Link href="/settings/profile" aria-current={location.startsWith("/settings") ? "page" : undefined}>
          <Settings aria-hidden="true" /> Settings
        </Link>
      </Button>
      <Button variant="outline" size="sm" onClick={logout}>
        <LogOut /> Logout
      </Button>
    </>
  );
}

/** The foot of the phone menu: who is signed in, and Logout. */
export function MobileAccountControls({ user }: { user: User }) {
  return (
    <div className="mt-2 flex items-center justify-between gap-2 border-t border-border pt-3">
      <div className="flex items-center gap-2">
        <Avatar className="size-9">
          {user.profileImageUrl && <AvatarImage src={user.profileImageUrl} alt="" />}
          <AvatarFallback>{initials(user)}</AvatarFallback>
        </Avatar>
        <span className="text-sm font-medium">
          {user.firstName} {user.lastName}
        </span>
      </div>
      <Button variant="outline" size="sm" onClick={logout}>
        <LogOut /> Logout
      </Button>
    </div>
  );
}
