// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { readPageData } from "./page-data";

// The answers a server-rendered page brings in its HTML (docs/decisions/036-server-rendered-data-pages.md).

function documentWith(body: string): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><body><div id="root"></div>${body}</body></html>`, "text/html");
}

describe("readPageData", () => {
  it("reads the state the server wrote, escapes and all", () => {
    const text = '{"renderedAt":"2026-11-20T15:05:00.000Z","queries":[{"key":["/api/tasks","1"],"data":{"title":"\\u003c/script\\u003e"}}]}';
    expect(readPageData(documentWith(`<script type="application/json" id="page-data">${text}</script>`))).toEqual({
      renderedAt: "2026-11-20T15:05:00.000Z",
      queries: [{ key: ["/api/tasks", "1"], data: { title: "</script>" } }],
    });
  });

  it("is null for a page without it, or with one it cannot read", () => {
    expect(readPageData(documentWith(""))).toBeNull();
    expect(readPageData(documentWith('<script type="application/json" id="page-data">{"renderedAt":</script>'))).toBeNull();
    expect(readPageData(documentWith('<script type="application/json" id="page-data">{"queries":[]}</script>'))).toBeNull();
  });
});
