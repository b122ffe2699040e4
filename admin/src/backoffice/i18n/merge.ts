// Building the interface texts from layers: react-admin's, ours, each screen's own.

export type Messages = { [key: string]: string | Messages };

export function merge(...layers: Messages[]): Messages {
  const out: Messages = {};
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const below = out[key];
      out[key] = typeof value === 'object' && typeof below === 'object' ? merge(below, value) : value;
    }
  }
  return out;
}

/** Only the keys that `reference` has: ra-language-german still carries texts react-admin dropped. */
export function onlyKeysOf(reference: Messages, messages: Messages): Messages {
  const out: Messages = {};
  for (const [key, value] of Object.entries(messages)) {
    const wanted = reference[key];
    if (wanted === undefined) continue;
    out[key] = typeof value === 'object' && typeof wanted === 'object' ? onlyKeysOf(wanted, value) : value;
  }
  return out;
}

/** Every key as a dotted path, for the completeness test. */
export function keysOf(messages: Messages, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' ? keysOf(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
