import { useEffect, useRef, useState } from 'react';
import type QRCodeStyling from 'qr-code-styling';
import { codeBlob, codeFileName, loadStyling, type CodeFormat } from '../../shared/code-file.ts';
import { saveBlob } from '../../shared/save-file.ts';
import { printSize, qrCodeOptions, vendorQrUrl } from '../../shared/qr.ts';
import type { PublicSettings } from '../../shared/settings.ts';
import type { OwnVendor } from '../api.ts';
import type { PageProps } from './props.ts';

/** /me/qrcode: the badge's code, drawn by qr-code-styling (loaded only here), to download and print. */
export function QrCode({ vendor, settings, t }: PageProps & { vendor: OwnVendor; settings: PublicSettings }) {
  const box = useRef<HTMLDivElement>(null);
  const [code, setCode] = useState<QRCodeStyling | null>(null);
  const [failed, setFailed] = useState(false);
  const url = vendorQrUrl(settings, vendor.licenseId);

  useEffect(() => {
    let current = true;
    void loadStyling().then(({ default: Styling }) => {
      if (!current || !box.current) return;
      const qr = new Styling(qrCodeOptions(url, settings, 280));
      box.current.replaceChildren();
      qr.append(box.current);
      setCode(qr);
    });
    return () => {
      current = false;
    };
  }, [url, settings]);

  // The file is drawn again at print size: the 280 px on screen would print blurred on a badge.
  const download = async (format: CodeFormat) => {
    setFailed(false);
    try {
      saveBlob(await codeBlob(qrCodeOptions(url, settings, printSize), format), codeFileName(vendor.licenseId, format));
    } catch {
      setFailed(true);
    }
  };
  return (
    <section className="me-card me-qr" id="me-qrcode">
      <p>{t.qrHint}</p>
      <div ref={box} className="me-qr-code" id="me-qr-code" data-url={url} />
      <p className="me-qr-url">{url}</p>
      <div className="me-buttons">
        <button type="button" onClick={() => void download('png')} disabled={!code} id="me-qr-png">
          {t.downloadPng}
        </button>
        <button type="button" onClick={() => void download('svg')} disabled={!code} id="me-qr-svg">
          {t.downloadSvg}
        </button>
      </div>
      {failed && (
        <p role="alert" id="me-qr-failed" className="me-problem">
          {t.codeFailed}
        </p>
      )}
    </section>
  );
}
