import { useMutation } from "@tanstack/react-query";
import { exportFileName } from "@shared/account";
import { ApiError } from "@/lib/api";

/** GET /api/account/export, saved as the file the server names (Content-Disposition). */
async function downloadExport(): Promise<string> {
  const res = await fetch("/api/account/export", { credentials: "include" });
  if (!res.ok) {
    let message = res.statusText;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      // Not JSON: keep the status text.
    }
    throw new ApiError(res.status, message);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? exportFileName(new Date());
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
  return name;
}

export function useDownloadExport() {
  return useMutation({ mutationFn: downloadExport });
}
