import { chromiumPath, launchBrowser } from "./harness.js";

// Says which browser this run drives before any test starts, so a failure on a fresh machine (where
// `npm test` installed whatever Chromium the distribution ships that day) names the version.
export default async function setup(): Promise<void> {
  const browser = await launchBrowser();
  try {
    console.log(`e2e browser: ${browser.browserType().name()} ${browser.version()} (${chromiumPath() ?? "playwright-core's download"})`);
  } finally {
    await browser.close();
  }
}
