import { useEffect } from "react";

/** Sets the tab title for the page; "Errandly" alone on the landing page. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title ? `${title} | Errandly` : "Errandly: local errands and tasks, done by verified providers";
  }, [title]);
}
