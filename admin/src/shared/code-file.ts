import type { Options } from 'qr-code-styling';

// A vendor's code as a file, for the back office and for /me.

let library: Promise<typeof import('qr-code-styling')> | undefined;

/** qr-code-styling, fetched on first use: the back office's first screen must not carry it. */
export const loadStyling = () => (library ??= import('qr-code-styling'));

export type CodeFormat = 'png' | 'svg';

/** Why a code could not be made; each page says the reason in its reader's language. */
export class CodeFailure extends Error {
  constructor(readonly key: 'logo_unavailable' | 'not_drawn' | 'drawing_stuck') {
    super(key);
  }
}

// qr-code-styling waits for its image loads and its logo request without an error handler: a logo
// that does not arrive leaves the download hanging, with nothing said. So the logo is fetched here,
// where a failure is seen, and a drawing that never ends is given up after this long.
export const drawingLimitSeconds = 20;

/** The logo as a data URL: the library then draws it without a request of its own. */
async function embeddedLogo(url: string): Promise<string> {
  const response = await fetch(url).catch(() => null);
  if (!response?.ok) throw new CodeFailure('logo_unavailable');
  const logo = await response.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new CodeFailure('logo_unavailable'));
    reader.readAsDataURL(logo);
  });
}

function withinLimit<T>(work: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new CodeFailure('drawing_stuck')), drawingLimitSeconds * 1000);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** One code as a file: PNG drawn on a canvas, or SVG text. Fails with a CodeFailure, never hangs. */
export async function codeBlob(options: Options, format: CodeFormat): Promise<Blob> {
  const { default: Styling } = await loadStyling();
  const logo = options.image && {
    image: await embeddedLogo(options.image),
    imageOptions: { ...options.imageOptions, saveAsBlob: false },
  };
  const data = await withinLimit(new Styling({ ...options, ...logo }).getRawData(format));
  if (!(data instanceof Blob)) throw new CodeFailure('not_drawn');
  return data;
}

/** "qr-DEMO-1.png": the file name of a vendor's code. */
export const codeFileName = (licenseId: string, format: CodeFormat) => `qr-${licenseId}.${format}`;
