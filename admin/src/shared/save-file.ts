// Files made or fetched in the page, offered to the browser's downloads.

/** Offers data made in the page (a code, a CSV) for download under `name`. */
export function saveBlob(blob: Blob, name: string): void {
  offerUrl(URL.createObjectURL(blob), name);
}

/** Offers an object URL for download under `name`, then frees it. */
export function offerUrl(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the URL would only hold memory.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
