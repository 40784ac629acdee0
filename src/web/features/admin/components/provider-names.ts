import { initials } from "@shared/names";
import type { ProviderProfile } from "@shared/providers";

/** The name an admin sees on a provider's card and dialogs: the account's, else the application's. */
export function fullName(profile: ProviderProfile): string {
  return `${profile.user.firstName} ${profile.user.lastName}`.trim() || profile.fullName;
}

export function initialsOf(profile: ProviderProfile): string {
  return initials(profile.user);
}
