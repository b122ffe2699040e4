/**
 * Stored files as react-admin's file inputs hold them: the API answers a URL (or for a PDF
 * { url, size }); the input wants { src, title }. A new upload carries its rawFile instead.
 */
export function asFileValue(value: unknown): unknown {
  if (typeof value === 'string' && value)
    return {
      src: value.startsWith('/') || /^https?:/.test(value) ? value : `/${value}`,
      title: value.split('/').pop() ?? value,
    };
  if (value && typeof value === 'object' && 'url' in value && typeof value.url === 'string')
    return { src: value.url, title: 'PDF' };
  return value;
}
