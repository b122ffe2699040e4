import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../e2e/browser.ts';
import { outputDir } from '../e2e/server.ts';

// A printable page as the office prints it: Chromium's PDF of the HTML (A4, the page's own @page),
// read back as text by poppler's pdftotext, so a test checks what is on the paper, not in the markup.

const run = promisify(execFile);

export interface PrintedPdf {
  pages: number;
  /** The PDF's text in reading order, spaces and no-break spaces as plain spaces. */
  text: string;
  /** Where the PDF is kept (.test-output), to look at with `pdftoppm -png -r 70`. */
  file: string;
}

/** A Chromium for printing; `close()` it in `after`. */
export function pdfPrinter(): { print(html: string, name: string): Promise<PrintedPdf>; close(): Promise<void> } {
  let browser: Promise<Browser> | undefined;
  return {
    async print(html, name) {
      browser ??= launchChromium();
      const page = await (await browser).newPage();
      try {
        await page.setContent(html);
        const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
        fs.mkdirSync(outputDir, { recursive: true });
        const file = path.join(outputDir, `${name}.pdf`);
        fs.writeFileSync(file, pdf);
        const { stdout } = await run('pdftotext', ['-layout', file, '-']);
        const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
        return { pages, text: stdout.replace(/[\u00a0\u202f]/g, ' '), file };
      } finally {
        await page.close();
      }
    },
    async close() {
      if (browser) await (await browser).close();
    },
  };
}
