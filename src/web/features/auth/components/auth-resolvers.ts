import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import { loginBodySchema, registerBodySchema, type LoginBody, type RegisterBody } from "@shared/auth";

// The sign-in and sign-up forms' rules, the server's own schemas: their own chunk, loaded at the
// forms' first focus (auth-forms.tsx), so the sign-in page's first load leaves zod out.

export const loginResolver: Resolver<LoginBody> = zodResolver(loginBodySchema);
export const registerResolver: Resolver<RegisterBody> = zodResolver(registerBodySchema);
