import { CurationRefused, newestStateReadFrom, openLabelCandidates, planCapture } from '@evidence-record/curation';
import { parseDsldLabel, type DsldReading } from '../dsld';
import { dropDsldKeyOffOrigin, withDsldKey } from '../dsld-key';
import { hostAllowListed } from '../guard';
import { labelCaptureOf } from '../label-capture';
import type { SourceKind } from './kind';

/**
 * A DSLD label (decision 1007): the label JSON of DSLD's API, `{DSLD_BASE_URL}/label/{id}`. Kept as served; read
 * into a label state and DSLD's own facts about it; a new state opens label candidates (formula, serving, off the
 * market) against the one before.
 */
export const dsldLabel: SourceKind<DsldReading, null> = {
  name: 'dsld_label',

  admit(url, policy) {
    if (url.origin !== policy.dsldOrigin && !hostAllowListed(url.hostname, policy)) {
      throw new CurationRefused(
        `a dsld_label source is read from DSLD at ${policy.dsldOrigin} (DSLD_BASE_URL), not from ${url.origin}; a mirror's host must be in MONITOR_ALLOW_HOSTS`,
        'invalid_input',
      );
    }
  },
  // The key goes to DSLD's origin only, and not along a redirect that leaves it (dsld-key.ts).
  requestUrl: (url, settings) => withDsldKey(settings, url),
  beforeRedirect: (next, settings) => dropDsldKeyOffOrigin(settings, next),

  parse: (body) => parseDsldLabel(body.toString('utf8')),
  evidence: (body) => ({ mediaType: 'application/json', content: body }),
  reread: (content) => parseDsldLabel(content.toString('utf8')),

  capture: async (reading, _src, names) => ({ ...(await labelCaptureOf(reading, names)), prices: [] }),

  async plan(client, { src, capture, evidence }) {
    // The same bytes are the same label (decision 1400): a reading that differs from the state read from them
    // differs because the reading rule changed, so the state is re-derived, not followed by a new one.
    const newest = await newestStateReadFrom(client, src.product_id, evidence.sha256);
    if (newest?.same_bytes) return { plan: { newest, same: true }, mayOpenCandidate: false, rederive: true, context: null };
    const plan = await planCapture(client, capture);
    return { plan, mayOpenCandidate: !plan.same && plan.newest !== null, context: null };
  },

  async placed(client, { src, placed, reading }, out) {
    if (!placed.state_created) return;
    out.states_created++;
    if (placed.previous_state_id) out.candidates_opened += await openLabelCandidates(client, src.product_id, placed.previous_state_id, placed.state_id!, reading.facts.events);
  },
};
