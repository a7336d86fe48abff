import { normalizeName } from '@evidence-record/record';

/**
 * The ingredient catalogue: real ingredient names with the synonyms labels
 * use. DMAA, DMHA, BMPEA and phenibut are in the catalogue only so that their
 * regulatory records have somewhere to attach; no demo product declares them.
 */
export interface DemoIngredient {
  ingredient_id: string;
  name: string;
  kind: string;
  synonyms: string[];
}

function ing(slug: string, name: string, kind: string, synonyms: string[] = []): DemoIngredient {
  return { ingredient_id: `ing_${slug}`, name, kind, synonyms };
}

export const ingredients: DemoIngredient[] = [
  ing('caffeine', 'Caffeine', 'stimulant', ['Caffeine Anhydrous', 'Anhydrous Caffeine', '1,3,7-Trimethylxanthine']),
  ing('beta_alanine', 'Beta-Alanine', 'amino_acid', ['β-Alanine', 'Beta Alanine']),
  ing('l_citrulline', 'L-Citrulline', 'amino_acid', ['Citrulline']),
  ing('citrulline_malate', 'Citrulline Malate 2:1', 'amino_acid', ['Citrulline Malate', 'L-Citrulline DL-Malate 2:1']),
  ing('creatine_monohydrate', 'Creatine Monohydrate', 'amino_acid_derivative', ['Creatine', 'Micronized Creatine Monohydrate']),
  ing('betaine_anhydrous', 'Betaine Anhydrous', 'amino_acid_derivative', ['Betaine', 'Trimethylglycine', 'TMG']),
  ing('l_theanine', 'L-Theanine', 'amino_acid', ['Theanine']),
  ing('l_tyrosine', 'L-Tyrosine', 'amino_acid', ['Tyrosine']),
  ing('n_acetyl_l_tyrosine', 'N-Acetyl L-Tyrosine', 'amino_acid', ['NALT', 'N-Acetyl-L-Tyrosine']),
  ing('taurine', 'Taurine', 'amino_acid', []),
  ing('l_arginine', 'L-Arginine', 'amino_acid', ['Arginine']),
  ing('agmatine_sulfate', 'Agmatine Sulfate', 'amino_acid_derivative', ['Agmatine']),
  ing('l_carnitine_l_tartrate', 'L-Carnitine L-Tartrate', 'amino_acid_derivative', ['Carnitine Tartrate', 'LCLT']),
  ing('sodium_nitrate', 'Sodium Nitrate', 'nitrate_source', []),
  ing('beetroot_extract', 'Beetroot Extract', 'nitrate_source', ['Beet Root Extract', 'Beta vulgaris Root Extract']),
  ing('alpha_gpc', 'Alpha-GPC', 'choline_source', ['L-Alpha-Glycerylphosphorylcholine', 'Alpha Glycerylphosphorylcholine']),
  ing('huperzine_a', 'Huperzine A', 'botanical', ['Huperzia serrata Extract']),
  ing('black_pepper_extract', 'Black Pepper Fruit Extract', 'botanical', ['Piper nigrum Fruit Extract', 'Piperine']),
  ing('glycerol', 'Glycerol', 'other', ['Glycerol Powder', 'Glycerin']),
  ing('sodium_bicarbonate', 'Sodium Bicarbonate', 'buffer', ['Bicarbonate of Soda']),
  ing('niacin', 'Niacin', 'vitamin', ['Vitamin B3', 'Nicotinic Acid']),
  ing('vitamin_b6', 'Vitamin B6', 'vitamin', ['Pyridoxine Hydrochloride', 'Pyridoxine HCl']),
  ing('vitamin_b12', 'Vitamin B12', 'vitamin', ['Cyanocobalamin', 'Methylcobalamin']),
  ing('sodium', 'Sodium', 'mineral', ['Sodium Chloride']),
  ing('potassium', 'Potassium', 'mineral', ['Potassium Chloride']),
  ing('dmaa', '1,3-Dimethylamylamine (DMAA)', 'stimulant', ['DMAA', '1,3-Dimethylamylamine', 'Methylhexanamine', '1,3-DMAA']),
  ing('dmha', 'DMHA (2-Aminoisoheptane)', 'stimulant', ['DMHA', '2-Aminoisoheptane', 'Octodrine', '1,5-Dimethylhexylamine']),
  ing('bmpea', 'BMPEA (beta-Methylphenethylamine)', 'stimulant', ['BMPEA', 'beta-Methylphenethylamine', 'β-Methylphenethylamine']),
  ing('phenibut', 'Phenibut', 'other', ['4-Amino-3-phenylbutyric Acid', 'beta-Phenyl-gamma-aminobutyric Acid']),
];

/** Catalogue lookup by any name or synonym, through the normalisation rule. */
const byName = new Map<string, DemoIngredient>();
for (const i of ingredients) {
  for (const n of [i.name, ...i.synonyms]) byName.set(normalizeName(n), i);
}

/**
 * The catalogue entry a declared label line names. The label's own wording is
 * kept as `declared_name`; a parenthesised form ("Vitamin B12 (as
 * cyanocobalamin)") is ignored for the lookup. Unknown names stay unlinked.
 */
export function ingredientForDeclaredName(declaredName: string): DemoIngredient | undefined {
  const bare = declaredName.replace(/\([^)]*\)/g, ' ');
  return byName.get(normalizeName(bare)) ?? byName.get(normalizeName(declaredName));
}
