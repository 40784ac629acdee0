import type { Check } from "../report.js";
import type { Cast } from "../world.js";

// Item 11: task titles written to run as formulas once a CSV export opens in a spreadsheet, with
// any separator the spreadsheet may be set to. The victim's two paid tasks carry them
// (CSV_TITLES in world.ts); the exports are downloaded as the admin (ledger) and as the provider
// (earnings) and read as a spreadsheet would: cut at every comma, semicolon and tab, quotes or not.

/** A piece of each hostile title the guard leaves as it is: how its rows are found. */
const TITLE_MARKS = ["calc'!A0", "SUM(1+1)"];
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** The cells of `csv` that a spreadsheet would run as formulas, whatever its separator. */
function formulaCells(csv: string): string[] {
  const found: string[] = [];
  for (const line of csv.split(/\r?\n/)) {
    for (const raw of line.split(/[,;\t]/)) {
      const cell = raw.replace(/^[ "]+/, "").replace(/"+$/, "");
      if (FORMULA.test(cell) && !NUMBER.test(cell)) found.push(cell);
    }
  }
  return found;
}

export async function csvCheck(check: Check, cast: Cast): Promise<void> {
  const exports = [
    { name: "the admin's ledger export", who: cast.admin2, path: "/api/admin/ledger.csv" },
    { name: "the provider's earnings export", who: cast.devon, path: "/api/payments/earnings.csv" },
  ];
  for (const e of exports) {
    const answer = await e.who.browser.get(e.path);
    const titles = TITLE_MARKS.filter((mark) => answer.text.includes(mark));
    const cells = formulaCells(answer.text);
    check.expect(
      `${e.name} (${e.path}) holds no formula for any separator`,
      answer.status === 200 && titles.length > 0 && cells.length === 0,
      `${answer.status}, ${answer.text.split("\n").length - 1} rows, ${titles.length} hostile titles found, ${cells.length} formula cells${cells.length ? `: ${cells.slice(0, 3).join(" | ")}` : ""}`,
    );
  }
}
