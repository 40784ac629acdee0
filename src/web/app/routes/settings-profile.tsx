import { ProfileNameForm } from "@/features/account/components/profile-name-form";
import { ProfilePhotoCard } from "@/features/account/components/profile-photo-card";
import { FileUpload } from "@/features/providers/components/file-upload";

/** /settings/profile: name and photo; the photo goes through the providers' uploader (one upload flow). */
export default function SettingsProfilePage() {
  return (
    <>
      <ProfileNameForm />
      <ProfilePhotoCard uploader={(onUploaded) => <FileUpload kind="profile_photo" label="Photo" onUploaded={onUploaded} />} />
    </>
  );
}
