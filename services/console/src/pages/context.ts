import { Router, type Request } from 'express';
import {
  addContext,
  contextIndex,
  contextKindOf,
  correctContext,
  listContext,
  referenceDomains,
  retireContext,
  type ContextEntry,
  type ContextFields,
  type ContextKind,
} from '@evidence-record/curation';
import { regulatoryKinds, researchKinds } from '@evidence-record/contract';
import { html, type Safe } from '../html';
import type { PageKit } from '../kit';
import { ingredientName } from '../queries/catalogue';

/**
 * The research and regulatory pages (decision 1601): an ingredient's research
 * context, regulatory records and documented cautions, with forms to add,
 * correct and retire them through the curation library the CLI uses. The
 * console's own helpers (rendering, CSRF field, the recorded action) come in
 * with the page kit (kit.ts), so these pages behave as every other console page does.
 */
const ingredientPattern = /^ing_[a-z0-9_]{2,60}$/;

/** The fields a form sent; an emptied optional field is null (cleared), an emptied required one is left for the rules to refuse. */
function formFields(kit: PageKit, req: Request, kind: ContextKind): ContextFields {
  const text = (name: string) => kit.field(req, name);
  const optionalText = (name: string) => (text(name).trim() === '' ? null : text(name));
  const number = (name: string) => (text(name).trim() === '' ? null : Number(text(name)));
  const f: ContextFields = { authority: text('authority'), kind: text('kind'), date: text('date'), title: text('title'), what: text('what'), url: text('url') };
  if (kind === 'regulatory') return { ...f, reference_title: optionalText('reference_title'), caution: text('caution') === 'yes' };
  return { ...f, range_low: number('range_low'), range_high: number('range_high'), range_unit: optionalText('range_unit'), range_basis: optionalText('range_basis'), population: optionalText('population') };
}

function entryForm(kind: ContextKind, e: Partial<ContextEntry> = {}): Safe {
  const kinds: readonly string[] = kind === 'research' ? researchKinds : regulatoryKinds;
  const v = (x: string | number | null | undefined) => (x === null || x === undefined ? '' : String(x));
  const common = html`<label>Authority<input type="text" name="authority" value="${v(e.authority)}" required></label>
<label>Kind<select name="kind">${kinds.map((k) => html`<option value="${k}"${k === e.record_kind ? html` selected` : ''}>${k}</option>`)}</select></label>
<label>Date (YYYY, YYYY-MM or YYYY-MM-DD)<input type="text" name="date" value="${v(e.date)}" required></label>
<label>Title<input type="text" name="title" value="${v(e.title)}" required></label>
<label>${kind === 'research' ? 'Evidence (what the cited work found, one line)' : 'What it is (what the filing is and who issued it; never an approval, a warning or a finding of harm)'}<textarea name="what" rows="3" required>${v(e.what)}</textarea></label>
<label>Reference (https, on the allow-list below)<input type="text" name="url" value="${v(e.url)}" required></label>`;
  const specific =
    kind === 'regulatory'
      ? html`<label>Reference title (if it differs from the title)<input type="text" name="reference_title" value="${v(e.reference_title)}"></label>
<label class="check"><input type="checkbox" name="caution" value="yes"${e.caution ? html` checked` : ''}> A documented caution: the authority's own, published on its domain</label>`
      : html`<label>Studied range: low<input type="text" name="range_low" value="${v(e.range_low)}"></label><label>high<input type="text" name="range_high" value="${v(e.range_high)}"></label>
<label>unit<input type="text" name="range_unit" value="${v(e.range_unit)}"></label><label>basis<input type="text" name="range_basis" value="${v(e.range_basis)}"></label>
<label>Population<input type="text" name="population" value="${v(e.population)}"></label>`;
  return html`${common}${specific}`;
}

function entryCard(kit: PageKit, req: Request, e: ContextEntry): Safe {
  const corrections = e.corrections.filter((c) => c.kind === 'correction');
  return html`<section class="entry" data-entry="${e.entry_id}" data-state="${e.retired_on ? 'retired' : 'current'}">
<h3>${e.title} <small class="muted">${e.entry_id}</small></h3>
<p>${e.authority ?? 'no authority recorded'} · ${e.record_kind} · ${e.date ?? 'undated'}${e.caution ? html` · <strong>documented caution</strong>` : ''}${e.url ? html` · <code>${e.url}</code>` : html` · <span class="muted">no reference address</span>`}</p>
<p>${e.what}</p>
${e.range_low !== null || e.range_high !== null ? html`<p>Studied range: ${e.range_low ?? '?'}–${e.range_high ?? '?'} ${e.range_unit ?? ''}${e.range_basis ? `, ${e.range_basis}` : ''}${e.population ? html` · population: ${e.population}` : ''}</p>` : ''}
${e.retired_on ? html`<p class="retired">Retired on ${e.retired_on}: ${e.retired_note ?? ''} Answers name it as retired and no longer serve it.</p>` : ''}
${corrections.length
    ? html`<table><thead><tr><th>Corrected</th><th>Note</th><th>Field</th><th>Before</th><th>After</th><th>By</th></tr></thead><tbody>${corrections.flatMap((c) =>
        c.changes.map((ch) => html`<tr><td>${c.recorded_on}</td><td>${c.note}</td><td>${ch.field}</td><td>${String(ch.before ?? '')}</td><td>${String(ch.after ?? '')}</td><td>${c.by ?? ''}</td></tr>`),
      )}</tbody></table>`
    : ''}
${e.retired_on
    ? ''
    : html`<details><summary>Correct or retire</summary><div class="sides">
<form method="post" action="/context/entries/${e.entry_id}/correct">${kit.csrfField(req)}<input type="hidden" name="ingredient" value="${e.ingredient_id}">${entryForm(e.kind, e)}<label>Public note (why; shown with the correction)<textarea name="note" rows="2" required></textarea></label><button type="submit">Correct</button></form>
<form method="post" action="/context/entries/${e.entry_id}/retire">${kit.csrfField(req)}<input type="hidden" name="ingredient" value="${e.ingredient_id}"><label>Public note (why it is retired)<textarea name="note" rows="2" required></textarea></label><button type="submit">Retire</button></form></div></details>`}
</section>`;
}

export function contextPages(kit: PageKit): Router {
  const router = Router();

  router.get('/context', async (req, res) => {
    const index = await contextIndex(kit.pool);
    kit.send(req, res, 'Research and regulatory context', html`<p class="muted">Each ingredient's research context, regulatory records and documented cautions, as answers serve them. Open one to add, correct or retire an entry.</p>
<table><thead><tr><th>Ingredient</th><th>Research</th><th>Regulatory records</th><th>Documented cautions</th><th>Retired</th></tr></thead><tbody>
${index.map((i) => html`<tr><td><a href="/context/${i.ingredient_id}">${i.name}</a> <small class="muted">${i.ingredient_id}</small></td><td>${i.research}</td><td>${i.regulatory}</td><td>${i.cautions}</td><td>${i.retired}</td></tr>`)}
</tbody></table>`);
  });

  router.get('/context/:ingredient', async (req, res) => {
    const id = String(req.params.ingredient);
    const name = ingredientPattern.test(id) ? await ingredientName(kit.pool, id) : undefined;
    if (!name) {
      res.status(404);
      kit.send(req, res, 'Not found', html`<p>No ingredient ${id}.</p>`);
      return;
    }
    const [regulatory, research] = [await listContext(kit.pool, 'regulatory', { ingredient_id: id }), await listContext(kit.pool, 'research', { ingredient_id: id })];
    kit.send(req, res, `${name}: research and regulatory context`, html`<p class="muted">${id}. A regulatory record says what was filed, by whom and when; it is never an approval, a warning about a product or a finding of harm. A documented caution is the authority's own. Every change is a new record version, read by answers at once.</p>
<h2>Regulatory records and documented cautions</h2>${regulatory.length ? regulatory.map((e) => entryCard(kit, req, e)) : html`<p class="muted">None.</p>`}
<details><summary>Add a regulatory record</summary><form method="post" action="/context/${id}/regulatory" class="add">${kit.csrfField(req)}${entryForm('regulatory')}<button type="submit">Add the regulatory record</button></form></details>
<h2>Research context</h2>${research.length ? research.map((e) => entryCard(kit, req, e)) : html`<p class="muted">None.</p>`}
<details><summary>Add research context</summary><form method="post" action="/context/${id}/research" class="add">${kit.csrfField(req)}${entryForm('research')}<button type="submit">Add the research entry</button></form></details>
<h2>Reference allow-list</h2><p class="muted">A reference is an https address on one of these domains (or a subdomain). A documented caution's reference is on its authority's own domain, under that authority's name.</p>
<table><thead><tr><th>Domain</th><th>Authority</th><th>Carries</th></tr></thead><tbody>${referenceDomains.map((d) => html`<tr><td>${d.domain}</td><td>${d.authority ?? html`<span class="muted">(not an authority's own domain: research references only, never a caution's)</span>`}</td><td>${d.what}</td></tr>`)}</tbody></table>`);
  });

  const backToIngredient = (req: Request) => `/context/${ingredientPattern.test(String(req.params.ingredient)) ? String(req.params.ingredient) : ''}`;
  for (const kind of ['regulatory', 'research'] as const) {
    router.post(
      `/context/:ingredient/${kind}`,
      kit.act(`${kind} add`, (req) => String(req.params.ingredient), async (req, op) => {
        const out = await addContext(kit.pool, kind, { ingredient_id: String(req.params.ingredient), ...formFields(kit, req, kind), by: op.name });
        return { text: `Added ${out.entry_id} (record version ${out.record_version}).`, detail: { entry_id: out.entry_id } };
      }, backToIngredient),
    );
  }

  // The entry forms carry their ingredient, so an outcome lands back on its page.
  const entryBack = (req: Request) => `/context/${ingredientPattern.test(kit.field(req, 'ingredient')) ? kit.field(req, 'ingredient') : ''}`;
  router.post(
    '/context/entries/:entry/correct',
    kit.act('context correct', (req) => String(req.params.entry), async (req, op) => {
      const entryId = String(req.params.entry);
      const out = await correctContext(kit.pool, { entry_id: entryId, note: kit.field(req, 'note'), ...formFields(kit, req, contextKindOf(entryId)), by: op.name });
      return { text: `Corrected ${out.entry_id}: ${out.changes.map((c) => c.field).join(', ')} (record version ${out.record_version}).`, detail: { correction_id: out.correction_id, changes: out.changes.map((c) => c.field) } };
    }, entryBack),
  );
  router.post(
    '/context/entries/:entry/retire',
    kit.act('context retire', (req) => String(req.params.entry), async (req, op) => {
      const out = await retireContext(kit.pool, { entry_id: String(req.params.entry), note: kit.field(req, 'note'), by: op.name });
      return { text: `Retired ${out.entry_id} on ${out.retired_on} (record version ${out.record_version}).` };
    }, entryBack),
  );
  return router;
}
