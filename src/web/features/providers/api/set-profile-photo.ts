import { apiRequest } from "@/lib/api";

/** PUT /api/provider/set-profile-photo: attaches an uploaded image as the profile photo; answers its objectPath. */
export async function setProfilePhoto(uploadURL: string): Promise<string> {
  const res = await apiRequest<{ objectPath: string }>("PUT", "/api/provider/set-profile-photo", { profilePhotoURL: uploadURL });
  return res.objectPath;
}
