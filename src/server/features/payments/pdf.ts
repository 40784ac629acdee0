import type PDFKitDocument from "pdfkit";
import { form1099kNote, RECEIPT_TITLES, receiptLines, statementLines, type Receipt, type YearlyStatement } from "../../../shared/receipts.js";

// The receipt and the yearly statement as PDF documents, drawn on the server with pdfkit's built-in
// Helvetica (no font files to ship). Dates are written in UTC, as the ledger stores them.

const day = (iso: string) => new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/**
 * pdfkit (with fontkit and its tables, megabytes of source) is loaded with the first PDF, not at
 * start: an instance that sends none never holds it (docs/decisions/078-modules-loaded-on-first-use.md).
 */
let loadedPdfkit: Promise<{ default: typeof PDFKitDocument }> | null = null;

async function render(draw: (doc: PDFKit.PDFDocument) => void, title: string): Promise<Buffer> {
  const { default: PDFDocument } = await (loadedPdfkit ??= import("pdfkit"));
  const doc = new PDFDocument({ size: "LETTER", margin: 56, info: { Title: title, Author: "Errandly" } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  draw(doc);
  doc.end();
  return done;
}

function rows(doc: PDFKit.PDFDocument, lines: [string, string][]): void {
  for (const [label, value] of lines) {
    const y = doc.y;
    doc.font("Helvetica").fontSize(11).text(label, 56, y, { width: 330 });
    doc.text(value, 396, y, { width: 160, align: "right" });
    doc.moveDown(0.4);
  }
}

export function receiptPdf(receipt: Receipt): Promise<Buffer> {
  const title = `${RECEIPT_TITLES[receipt.kind]} ${receipt.number}`;
  return render((doc) => {
    doc.font("Helvetica-Bold").fontSize(20).text("Errandly");
    doc.moveDown(0.5);
    doc.fontSize(14).text(RECEIPT_TITLES[receipt.kind]);
    doc.font("Helvetica").fontSize(11);
    doc.text(`Receipt number: ${receipt.number}`);
    doc.text(`Date: ${day(receipt.issuedAt)}`);
    doc.text(`Paid by: ${receipt.payerName}`);
    doc.moveDown();
    doc.font("Helvetica-Bold").text(`Task: ${receipt.task.title}`);
    doc.font("Helvetica");
    if (receipt.task.scheduledDate) doc.text(`Task date: ${day(receipt.task.scheduledDate)}`);
    if (receipt.task.providerName) doc.text(`Provider: ${receipt.task.providerName}`);
    doc.moveDown();
    rows(doc, receiptLines(receipt));
    doc.moveDown();
    doc.fontSize(9).text("Questions about this receipt? Use the contact form on the Errandly website and quote the receipt number.");
  }, title);
}

export function statementPdf(statement: YearlyStatement): Promise<Buffer> {
  return render((doc) => {
    doc.font("Helvetica-Bold").fontSize(20).text("Errandly");
    doc.moveDown(0.5);
    doc.fontSize(14).text(`Yearly statement ${statement.year}`);
    doc.font("Helvetica").fontSize(11).text(`Provider: ${statement.providerName}`);
    doc.moveDown();
    rows(doc, statementLines(statement));
    doc.moveDown();
    doc.fontSize(9).text(form1099kNote(statement));
  }, `Yearly statement ${statement.year}`);
}
