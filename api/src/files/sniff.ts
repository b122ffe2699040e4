/** Content types we accept for uploads, recognised by their first bytes, never by name or header. */
export type FileKind = 'image/png' | 'image/jpeg' | 'image/webp' | 'application/pdf';

export function sniffContentType(bytes: Uint8Array): FileKind | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (
    starts(0x52, 0x49, 0x46, 0x46) &&
    bytes[8] === 0x57 &&
    bytes[9] === 0x45 &&
    bytes[10] === 0x42 &&
    bytes[11] === 0x50
  )
    return 'image/webp';
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf'; // %PDF-
  return undefined;
}

export const imageKinds: FileKind[] = ['image/png', 'image/jpeg', 'image/webp'];
export const pdfKinds: FileKind[] = ['application/pdf'];
