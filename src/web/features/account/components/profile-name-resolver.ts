import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import { profileBodySchema, type ProfileBody } from "@shared/account";

// The name form's rules, the server's own schema: its own chunk, loaded at the form's first focus
// (profile-name-form.tsx), so the settings page's first load leaves zod out (decision 041).

export const profileNameResolver: Resolver<ProfileBody> = zodResolver(profileBodySchema);
