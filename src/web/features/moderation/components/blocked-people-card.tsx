import { Link } from "wouter";
import { userProfilePath } from "@/lib/profile-path";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { useBlocks } from "../api/blocks";
import { BlockButton } from "./block-button";

/** "Blocked people" in settings (docs/product.md, Moderation): whom the person blocked, each with Unblock. */
export function BlockedPeopleCard() {
  const blocks = useBlocks();
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild className="text-xl">
          <h2>Blocked people</h2>
        </CardTitle>
        <CardDescription>You do not chat with them, and neither of you can claim the other&apos;s tasks.</CardDescription>
      </CardHeader>
      <CardContent>
        {blocks.isLoading ? (
          <Skeleton className="h-10 w-full" />
        ) : !blocks.data || blocks.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">You have not blocked anyone. Block a person from their profile.</p>
        ) : (
          <ul className="grid gap-2">
            {blocks.data.map((person) => (
              <li key={person.userId} className="flex flex-wrap items-center justify-between gap-2">
                <Link href={userProfilePath(person.userId)} className="font-medium break-words hover:underline">
                  {person.name}
                </Link>
                <BlockButton userId={person.userId} name={person.name} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
