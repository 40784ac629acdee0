// @vitest-environment jsdom
import { render } from "@testing-library/react";
import { useEffect } from "react";
import { describe, it } from "vitest";

// Component tests fail on console.error as the server suite does (test/fail-on-console-error.ts,
// vitest.config.ts): a React warning is a bug to fix, not noise.

function WarnsInAnEffect() {
  useEffect(() => {
    try {
      console.error("Warning: something went wrong");
    } catch {
      // Swallowed, as React swallows some of its own reports: the test must still fail.
    }
  }, []);
  return <p>Hello</p>;
}

describe("console.error in a component test", () => {
  it.fails("fails the test where it is called", () => {
    console.error("Warning: boom");
  });

  it.fails("fails the test even when the throw is swallowed", () => {
    render(<WarnsInAnEffect />);
  });
});
