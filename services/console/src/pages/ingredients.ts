import { Router } from 'express';
import { addIngredient, aliasIngredient, listIngredients, listUnidentified } from '@evidence-record/curation';
import { html } from '../html';
import type { PageKit } from '../kit';
import { productLabels } from '../queries/catalogue';

/** Kinds a curator picks from for a new ingredient (free text in the CLI; these are the catalogue's). */
const KINDS = ['ingredient', 'stimulant', 'amino_acid', 'amino_acid_derivative', 'botanical', 'vitamin', 'mineral', 'choline_source', 'nitrate_source', 'buffer', 'carbohydrate', 'nutrition_fact', 'other'];

/**
 * Identity curation in the console (decision 1500): the declared names the
 * Record could not identify, most lines first, each mapped to an existing
 * ingredient or added as a new one in one step. Both go through the curation
 * library (the CLI's `ingredient alias` / `ingredient add`): one new record
 * version, every line already read identified at once, never a Signal.
 */
export function ingredientPages(k: PageKit): Router {
  const router = Router();
  router.get('/ingredients', async (req, res) => {
    const [names, ingredients] = await Promise.all([listUnidentified(k.pool, { limit: 200 }), listIngredients(k.pool)]);
    const products = await productLabels(k.pool, names.flatMap((n) => n.products));
    k.send(req, res, 'Ingredient identity', html`<p class="muted">Declared names the Record could not identify, most lines first. Map a name to an ingredient (it becomes one of its names) or add it as a new ingredient: the lines already read are identified at once, in a new record version; what the labels declare does not change, and no Signal is made. Suggestions come from a line's UNII or DSLD group and are never applied on their own.</p>
<datalist id="ingredient-ids">${ingredients.map((i) => html`<option value="${i.ingredient_id}">${i.name}</option>`)}</datalist>
${names.length === 0 ? html`<p>Every declared line is identified.</p>` : ''}
<table><thead><tr><th>Declared name</th><th>Lines</th><th>Products</th><th>Suggestions</th><th>Map to an ingredient</th><th>Or add it as a new ingredient</th></tr></thead><tbody>
${names.map((n, i) => html`<tr data-name="${n.declared_name}"><td>${n.declared_name}</td><td>${n.count}</td>
<td>${n.products.slice(0, 5).map((p) => html`${products.get(p) ?? p}<br>`)}${n.products.length > 5 ? html`<small class="muted">and ${n.products.length - 5} more</small>` : ''}</td>
<td>${n.suggestions.length ? html`<ul>${n.suggestions.map((s) => html`<li>${s.name} <small class="muted">${s.ingredient_id} (by ${s.by})</small></li>`)}</ul>` : html`<span class="muted">none</span>`}</td>
<td><form method="post" action="/ingredients/map">${k.csrfField(req)}<input type="hidden" name="declared_name" value="${n.declared_name}">
<label>Ingredient id<input type="text" name="ingredient_id" list="ingredient-ids" id="map-${i}" value="${n.suggestions[0]?.ingredient_id ?? ''}" required></label><button type="submit">Map</button></form></td>
<td><form method="post" action="/ingredients/add">${k.csrfField(req)}<input type="hidden" name="declared_name" value="${n.declared_name}">
<label>Name<input type="text" name="name" value="${n.declared_name}" required></label>
<label>Kind <select name="kind">${KINDS.map((kind) => html`<option value="${kind}">${kind}</option>`)}</select></label>
<label>UNII (optional)<input type="text" name="unii"></label><button type="submit">Add</button></form></td></tr>`)}
</tbody></table>`);
  });

  router.post(
    '/ingredients/map',
    k.act('ingredient alias', (req) => k.field(req, 'ingredient_id'), async (req, op) => {
      const out = await aliasIngredient(k.pool, { ingredient_id: k.field(req, 'ingredient_id').trim(), names: [k.field(req, 'declared_name')], by: op.name });
      return { text: `"${k.field(req, 'declared_name')}" is now a name of ${out.name} (${out.ingredient_id}): ${out.lines_reidentified} line(s) identified, record version ${out.record_version ?? 'unchanged'}.`, detail: { ...out } };
    }, () => '/ingredients'),
  );
  router.post(
    '/ingredients/add',
    k.act('ingredient add', (req) => k.field(req, 'name'), async (req, op) => {
      const unii = k.field(req, 'unii').trim();
      const declared = k.field(req, 'declared_name');
      const out = await addIngredient(k.pool, { name: k.field(req, 'name'), kind: k.field(req, 'kind') || 'ingredient', uniis: unii ? [unii] : [], aliases: declared ? [declared] : [], by: op.name });
      return { text: `Added ${out.name} (${out.ingredient_id}): ${out.lines_reidentified} line(s) identified, record version ${out.record_version}.`, detail: { ...out } };
    }, () => '/ingredients'),
  );
  return router;
}
