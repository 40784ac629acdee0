import { displayInitials } from "@shared/names";
import { Avatar, AvatarFallback, AvatarImage } from "./avatar";

/**
 * A person's photo, or the initials of their display name when they have none. The name is
 * normally shown beside it, so the image is decorative (alt="") unless `alt` says otherwise.
 */
export function PersonAvatar({
  name,
  photoUrl,
  className,
  fallbackClassName,
  alt = "",
}: {
  name: string;
  photoUrl: string | null;
  className?: string;
  fallbackClassName?: string;
  alt?: string;
}) {
  return (
    <Avatar className={className}>
      {photoUrl ? <AvatarImage src={photoUrl} alt={alt} /> : null}
      <AvatarFallback className={fallbackClassName} aria-hidden={alt === "" ? true : undefined}>
        {displayInitials(name)}
      </AvatarFallback>
    </Avatar>
  );
}
