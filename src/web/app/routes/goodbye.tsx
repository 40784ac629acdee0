import { Link } from "wouter";
import { Button } from "@/components/ui/button";

/** /goodbye: shown once an account is deleted. */
export default function GoodbyePage() {
  return (
    <div className="mx-auto grid max-w-md justify-items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Your account is deleted</h1>
      <p className="text-muted-foreground">
        You are signed out everywhere and your personal details are erased. Thank you for using Errandly, and goodbye.
      </p>
      <Button asChild>
        <Link href="/">Go to the home page</Link>
      </Button>
    </div>
  );
}
