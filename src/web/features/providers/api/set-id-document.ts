import { apiRequest } from "@/lib/api";

/** PUT /api/provider/set-id-document: attaches an uploaded file as the ID document; answers its objectPath. */
export async function setIdDocument(uploadURL: string): Promise<string> {
  const res = await apiRequest<{ objectPath: string }>("PUT", "/api/provider/set-id-document", { idDocumentURL: uploadURL });
  return res.objectPath;
}
