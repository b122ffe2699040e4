import { writeEntry } from '../protocol/record.ts';
import { conflict } from '../http/errors.ts';
import type { AppContext, ProtocolSpec, RouteDef } from '../http/routes.ts';
import { idParam } from '../http/validate.ts';
import { CreditNotZero } from '../ledger/errors.ts';
import { removeVendorWithoutCredit } from '../ledger/vendor.ts';
import { vendorNotFound } from '../vendors/queries.ts';
import { toIso } from '../foundations/dates.ts';
import { pseudonym } from '../language/erased.ts';
import { anonymiseVendor } from './anonymise.ts';
import { exportVendor } from './export.ts';
import { money, tr } from '../language/messages.ts';

const vendorId = (ctx: AppContext) => idParam(ctx.params.id, 'vendor');

/** The vendor's moment of anonymisation (null: not anonymised), undefined when there is no such vendor. */
const anonymisedAt = async (ctx: AppContext, id: number | string) =>
  (await ctx.db('vendors').where({ id }).first<{ anonymised_at: Date | null } | undefined>('anonymised_at'))
    ?.anonymised_at;

/**
 * The protocol of an anonymisation names who did it and when, never a personal value: the record it
 * compares is only the moment of anonymisation.
 */
const anonymisationProtocol: ProtocolSpec = {
  recordType: 'vendor',
  action: 'anonymise',
  id: vendorId,
  load: async (ctx, id) => {
    const at = await anonymisedAt(ctx, id);
    return at === undefined ? undefined : { anonymisedAt: toIso(at) };
  },
};

export const privacyRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/api/vendors/:id/export',
    access: 'backoffice',
    handler: async (ctx) => {
      const id = vendorId(ctx);
      const exported = await exportVendor(ctx.db, id, ctx.config.timeZone);
      if (!exported) throw vendorNotFound(id);
      const user = ctx.state.user!;
      await writeEntry(ctx.db, {
        actorSub: user.sub,
        actorName: user.username,
        action: 'export',
        recordType: 'vendor',
        recordId: id,
      });
      ctx.type = 'application/zip';
      ctx.set('Content-Disposition', `attachment; filename="${exported.filename}"`);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = Buffer.from(exported.zip);
    },
  },
  {
    method: 'POST',
    path: '/api/vendors/:id/anonymise',
    access: 'backoffice',
    protocol: anonymisationProtocol,
    handler: async (ctx) => {
      const id = vendorId(ctx);
      let outcome;
      try {
        // Under the same lock and check as a deletion: no sale or payout changes the credit meanwhile.
        outcome = await removeVendorWithoutCredit(ctx.db, id, (trx) => anonymiseVendor(trx, id));
      } catch (error) {
        if (!(error instanceof CreditNotZero)) throw error;
        throw conflict(
          tr(
            'This vendor cannot be anonymised: the credit is not zero ({credit}). Please pay it out or settle the debt first.',
            { credit: money(error.credit) },
          ),
        );
      }
      if (outcome === 'not found') throw vendorNotFound(id);
      if (outcome === 'already anonymised') throw conflict('This vendor has already been anonymised.');
      ctx.body = { id, name: pseudonym(id), anonymisedAt: toIso((await anonymisedAt(ctx, id)) ?? null) };
    },
  },
];
