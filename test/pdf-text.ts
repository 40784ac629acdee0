import { inflateSync } from "node:zlib";

// The text a PDF made by pdfkit shows, for tests: every content stream is inflated (pdfkit
// compresses them with FlateDecode) and the hex strings of each TJ operator are decoded and joined,
// one line per operator. Kerning numbers between the pieces are dropped. Enough for pdfkit's
// built-in fonts (WinAnsi, one byte a character); not a general PDF reader.

export function pdfText(pdf: Buffer): string {
  const source = pdf.toString("latin1");
  if (!source.startsWith("%PDF-")) throw new Error("not a PDF");
  const lines: string[] = [];
  for (const stream of source.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content: string;
    try {
      content = inflateSync(Buffer.from(stream[1] ?? "", "latin1")).toString("latin1");
    } catch {
      continue; // not a compressed content stream (an image, a font)
    }
    for (const operator of content.matchAll(/\[(.*?)\] TJ/g)) {
      const pieces = [...(operator[1] ?? "").matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => Buffer.from(hex[1] ?? "", "hex").toString("latin1"));
      lines.push(pieces.join(""));
    }
  }
  return lines.join("\n");
}
