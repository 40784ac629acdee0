import { CATEGORY_VALUES, type Category } from "@shared/constants";
import { PROVIDER_SORTS } from "@shared/providers";
import { isRadiusMiles, parseNearFilter } from "@shared/task-filters";
import type { ProvidersParams } from "../api/get-providers";

// The directory's filters as the page's URL carries them (docs/product.md#verification, "Directory
// filters"): the API's names, so a shared link, reload and Back keep them. A wrong value in a
// hand-edited URL is dropped.

export const MIN_RATINGS = [3, 4, 4.5] as const;

export function readDirectoryFilters(params: URLSearchParams): ProvidersParams {
  const values: ProvidersParams = {};
  const near = params.get("near")?.trim();
  if (near && typeof parseNearFilter(near) !== "string") values.near = near;
  const radius = Number(params.get("radiusMiles"));
  if (values.near && isRadiusMiles(radius)) values.radiusMiles = radius;
  const service = CATEGORY_VALUES.find((c) => c === params.get("serviceType"));
  if (service) values.serviceType = service satisfies Category;
  const rating = Number(params.get("minRating"));
  if (params.get("minRating") && rating >= 1 && rating <= 5) values.minRating = rating;
  const sort = PROVIDER_SORTS.find((s) => s === params.get("sort"));
  if (sort && sort !== "name") values.sort = sort;
  return values;
}

/** The URL's query for these filters (the directory has no other parameters). */
export function directoryQuery(values: ProvidersParams): string {
  const query = new URLSearchParams();
  if (values.near) query.set("near", values.near);
  if (values.near && values.radiusMiles) query.set("radiusMiles", String(values.radiusMiles));
  if (values.serviceType) query.set("serviceType", values.serviceType);
  if (values.minRating !== undefined) query.set("minRating", String(values.minRating));
  if (values.sort && values.sort !== "name") query.set("sort", values.sort);
  return query.toString();
}
