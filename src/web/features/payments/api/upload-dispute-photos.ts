import { uploadFile } from "@/lib/upload-file";

/** Each chosen photo uploaded as a dispute photo: the links its message attaches (docs/product.md, Disputes). */
export const uploadDisputePhotos = (files: readonly File[]) => Promise.all(files.map((file) => uploadFile("dispute_photo", file)));
