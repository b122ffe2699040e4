// Which heavy libraries a loaded script carries, whatever chunk the bundler put them in: each is
// recognised by a string that survives minification and that only its own code contains.
const markers = {
  leaflet: 'leaflet-container',
  'leaflet.markercluster': 'markerClusterGroup',
  'qr-code-styling': 'clip-path-dot-color',
  'react-admin': 'RaLayout',
  chart: 'chart-series',
};

export type Library = keyof typeof markers;

/** The libraries whose code is in `script` (a script's body). */
export function librariesIn(script: string | Buffer): Library[] {
  const text = script.toString();
  return (Object.keys(markers) as Library[]).filter((library) => text.includes(markers[library]));
}
