// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Message } from "@shared/chat";
import { ChatMessageList } from "./chat-message-list";

const TASK = "00000000-0000-4000-8000-0000000000aa";
const ME = "00000000-0000-4000-8000-000000000001";
const OTHER = "00000000-0000-4000-8000-000000000002";

const message = (id: string, senderId: string, content: string): Message => ({
  id,
  taskId: TASK,
  senderId,
  recipientId: senderId === ME ? OTHER : ME,
  content,
  read: true,
  createdAt: "2026-03-01T12:00:00.000Z",
});

describe("ChatMessageList", () => {
  it("draws the report control beside the other person's messages only (docs/product.md, Moderation)", () => {
    const messages = [message("00000000-0000-4000-8000-0000000000b1", ME, "Hello"), message("00000000-0000-4000-8000-0000000000b2", OTHER, "Pay me outside")];
    render(<ChatMessageList messages={messages} myId={ME} report={(m) => <button type="button">Report {m.content}</button>} />);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual(["Report Pay me outside"]);
  });
});
