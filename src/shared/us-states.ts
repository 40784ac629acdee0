// US states and territories with their two-letter codes: the one list behind the application's
// State field, the server's check of it, and the geocoders reading a state as people and
// geocoders write it ("Maryland", "md"). Kept here rather than read from `zipcodes`, whose index
// module loads 5 MB of ZIP data.

/** In the order a person scans a state list: by name. */
export const US_STATES = [
  { code: "AL", name: "Alabama" }, { code: "AK", name: "Alaska" }, { code: "AS", name: "American Samoa" },
  { code: "AZ", name: "Arizona" }, { code: "AR", name: "Arkansas" }, { code: "CA", name: "California" },
  { code: "CO", name: "Colorado" }, { code: "CT", name: "Connecticut" }, { code: "DE", name: "Delaware" },
  { code: "DC", name: "District of Columbia" }, { code: "FL", name: "Florida" }, { code: "GA", name: "Georgia" },
  { code: "GU", name: "Guam" }, { code: "HI", name: "Hawaii" }, { code: "ID", name: "Idaho" },
  { code: "IL", name: "Illinois" }, { code: "IN", name: "Indiana" }, { code: "IA", name: "Iowa" },
  { code: "KS", name: "Kansas" }, { code: "KY", name: "Kentucky" }, { code: "LA", name: "Louisiana" },
  { code: "ME", name: "Maine" }, { code: "MD", name: "Maryland" }, { code: "MA", name: "Massachusetts" },
  { code: "MI", name: "Michigan" }, { code: "MN", name: "Minnesota" }, { code: "MS", name: "Mississippi" },
  { code: "MO", name: "Missouri" }, { code: "MT", name: "Montana" }, { code: "NE", name: "Nebraska" },
  { code: "NV", name: "Nevada" }, { code: "NH", name: "New Hampshire" }, { code: "NJ", name: "New Jersey" },
  { code: "NM", name: "New Mexico" }, { code: "NY", name: "New York" }, { code: "NC", name: "North Carolina" },
  { code: "ND", name: "North Dakota" }, { code: "MP", name: "Northern Mariana Islands" }, { code: "OH", name: "Ohio" },
  { code: "OK", name: "Oklahoma" }, { code: "OR", name: "Oregon" }, { code: "PA", name: "Pennsylvania" },
  { code: "PR", name: "Puerto Rico" }, { code: "RI", name: "Rhode Island" }, { code: "SC", name: "South Carolina" },
  { code: "SD", name: "South Dakota" }, { code: "TN", name: "Tennessee" }, { code: "TX", name: "Texas" },
  { code: "VI", name: "U.S. Virgin Islands" }, { code: "UT", name: "Utah" }, { code: "VT", name: "Vermont" },
  { code: "VA", name: "Virginia" }, { code: "WA", name: "Washington" }, { code: "WV", name: "West Virginia" },
  { code: "WI", name: "Wisconsin" }, { code: "WY", name: "Wyoming" },
] as const;

const BY_NAME = new Map<string, string>([
  ...US_STATES.map((s): [string, string] => [s.name.toUpperCase(), s.code]),
  ["UNITED STATES VIRGIN ISLANDS", "VI"],
]);
const BY_CODE = new Map<string, string>(US_STATES.map((s) => [s.code, s.name]));

/** "Maryland" → "MD", "md" → "MD"; null when it is not a US state or territory. */
export function stateCode(name: string | undefined | null): string | null {
  if (!name) return null;
  const upper = name.trim().toUpperCase().replace(/\s+/g, " ");
  if (BY_CODE.has(upper)) return upper;
  return BY_NAME.get(upper) ?? null;
}

/** "MD" → "Maryland"; the code itself when it is not one of ours. */
export const stateName = (code: string): string => BY_CODE.get(code) ?? code;
