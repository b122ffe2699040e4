import { createHash } from 'node:crypto';

// On a slow phone the widget's script, fetched and compiled while the server's first screen is being
// painted, made "Weiter" show later than on the same page without it (5 to 8 % behind the
// floor). The first screen works without the script (Weiter is a form), so the script is asked for
// only once the first screen is on the glass, or at once in a tab nobody sees.

/** Runs inline at the end of the body; finds the script's address in its own data-src. */
const loader =
  '(function(s){function go(){var m=document.createElement("script");m.type="module";m.src=s.getAttribute("data-src");document.head.appendChild(m)}' +
  'document.visibilityState==="hidden"?go():requestAnimationFrame(function(){setTimeout(go)})})(document.currentScript)';

/** The shop's Content-Security-Policy allows this one inline script by its hash, and no other. */
export const loaderSource = `'sha256-${createHash('sha256').update(loader).digest('base64')}'`;

const moduleScript = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/;

/**
 * The built page with its module script asked for after the first paint: the script element leaves
 * the head, and the loader takes its place at the end of the body, after the first screen.
 */
export function scriptAfterPaint(html: string): string {
  const src = moduleScript.exec(html)?.[1];
  if (!src) return html;
  return html
    .replace(moduleScript, '')
    .replace('</body>', () => `<script data-src="${src}">${loader}</script>\n  </body>`);
}
