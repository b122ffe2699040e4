import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { outputDir } from './server.ts';

/**
 * Prints a page of HTML to PDF in Chromium, as a print button does (A4, the page's own @page size),
 * saves it as .test-output/<name>.pdf and answers its number of pages.
 */
export async function printToPdf(context: BrowserContext, html: string, name: string): Promise<number> {
  const printPage = await context.newPage();
  try {
    await printPage.setContent(html);
    const pdf = await printPage.pdf({ format: 'A4', preferCSSPageSize: true });
    fs.mkdirSync(outputDir, { recursive: true });
    fs.writeFileSync(path.join(outputDir, `${name}.pdf`), pdf);
    return (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;
  } finally {
    await printPage.close();
  }
}
