import type { Knex } from 'knex';

// The DEP export (Datenerfassungsprotokoll, §7 RKSV; its JSON format in the Anlage Z 3, "DEP7" in
// the BMF's and A-SIT's words): every receipt of the chain as its JWS compact, in the order of the
// chain, grouped by the signature device that signed them, each group with the device's certificate
// and its issuers (base64 DER; empty for a device without a certificate, whose public key
// FinanzOnline knows). One group per till here: a till signs with one device.

export interface Dep7 {
  'Belege-Gruppe': { Signaturzertifikat: string; Zertifizierungsstellen: string[]; 'Belege-kompakt': string[] }[];
}

/** The receipts whose local date lies in from … to (both included), of one till or of every till. */
export async function dep7Export(db: Knex, from: string, to: string, tillId?: number): Promise<Dep7> {
  const rows = await db('fiscal_rksv_receipts as r')
    .join('fiscal_rksv_tills as t', 't.till_id', 'r.till_id')
    .where('r.receipt_date', '>=', from)
    .andWhere('r.receipt_date', '<=', to)
    .modify((q) => {
      if (tillId !== undefined) void q.andWhere('r.till_id', tillId);
    })
    .orderBy([
      { column: 'r.till_id', order: 'asc' },
      { column: 'r.number', order: 'asc' },
    ])
    .select<{ till_id: number; jws: string; certificate: string; certificate_chain: string[] | string }[]>(
      'r.till_id',
      'r.jws',
      't.certificate',
      't.certificate_chain',
    );
  const groups = new Map<number, Dep7['Belege-Gruppe'][number]>();
  for (const row of rows) {
    let group = groups.get(row.till_id);
    if (!group) {
      const chain =
        typeof row.certificate_chain === 'string'
          ? (JSON.parse(row.certificate_chain) as string[])
          : row.certificate_chain;
      group = { Signaturzertifikat: row.certificate, Zertifizierungsstellen: chain, 'Belege-kompakt': [] };
      groups.set(row.till_id, group);
    }
    group['Belege-kompakt'].push(row.jws);
  }
  return { 'Belege-Gruppe': [...groups.values()] };
}
