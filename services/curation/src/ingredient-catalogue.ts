/**
 * The Record's ingredient catalogue (decision 1500): reference data every
 * deployment needs, applied by `migrate` (scripts/migrate.ts) after the
 * migrations and by the demo seed, never part of the fictional demo Record.
 * It only ever adds: an entry, a name, a UNII or a group a curator already
 * gave another ingredient is skipped and reported, never overwritten.
 *
 * Grown from real pre-workout labels (services/monitor/test/fixtures/dsld-real
 * and dsld-export): each ingredient carries the names those labels print, the
 * DSLD ingredient groups their rows are filed under (alone, or with one form
 * where the group covers several ingredients), and the FDA Unique Ingredient
 * Identifiers (UNII) of what it covers, each with where the code came from:
 * a real DSLD label row's `uniiCode`, or an answer of FDA's Global Substance
 * Registration System (GSRS) recorded in a public repository.
 *
 * One substance, many ways of printing it: every caffeine source that
 * declares caffeine (anhydrous, citrate, di-caffeine malate, its chemical
 * names, "from coffee bean") is Caffeine. Forms whose amount means something
 * else are their own ingredients where the Record keeps research per form:
 * creatine (monohydrate, hydrochloride, …) and citrulline (L-citrulline,
 * citrulline malate), as DSLD's own groups separate the latter.
 */

export interface CatalogueEntry {
  ingredient_id: string;
  name: string;
  kind: string;
  /** Names labels print for it (its own name is one already). */
  synonyms?: string[];
  uniis?: Array<{ unii: string; source: string }>;
  /** DSLD ingredient groups: the whole group, or only its rows naming `form`. */
  groups?: Array<{ group: string; form?: string }>;
}

const FIXTURES = 'services/monitor/test/fixtures/dsld-real';
/** A UNII a real DSLD label row (or one of its forms) carries. */
const label = (id: string, row: string) => `DSLD label ${id}, "${row}" uniiCode (${FIXTURES}/${id}.json)`;

const SWEEPS = {
  iqm: ['iqm_identifier_sweep', 'f73e8471c18a934afebb0f33637ac6019816f012'],
  botanical: ['botanical_ingredients_identifier_sweep', 'b658302d4548eb7e88832d6eb68b29300f75c8c9'],
  banned: ['banned_recalled_identifier_sweep', 'bc2a0b28e35a64ade68788143755f31a05793ab6'],
  other: ['other_ingredients_identifier_sweep', '197b2790821296a58ec440e5d66c345916ead65b'],
  additives: ['harmful_additives_identifier_sweep', '6a170df50020006f73d1e9abf40e806d5acab845'],
} as const;
/** A UNII as FDA's GSRS answered for a substance name, recorded (answer and all) in a public repository. */
const gsrs = (sweep: keyof typeof SWEEPS, file: string, gsrsName: string) =>
  `FDA GSRS: ${gsrsName} (answer recorded in github.com/seancheick/PharmaGuide_Pipeline reports/${SWEEPS[sweep][0]}/per_parent/${file}.json @ ${SWEEPS[sweep][1]})`;

const u = (unii: string, source: string) => ({ unii, source });

export const ingredientCatalogue: CatalogueEntry[] = [
  // --- Stimulants, and those with regulatory history -------------------------------------------------
  {
    ingredient_id: 'ing_caffeine', name: 'Caffeine', kind: 'stimulant',
    synonyms: ['Caffeine Anhydrous', 'Anhydrous Caffeine', '1,3,7-Trimethylxanthine', 'Caffeine Citrate', 'Citrated Caffeine', 'Di-Caffeine Malate',
      'Dicaffeine Malate', 'Infinergy', '1,3,7-Trimethylpurine-2,6-dione', '1,3,7-trimethyl-1H-purine-2,6(3H,7H)-dione', 'ZumXR Caffeine', 'Natural Caffeine'],
    uniis: [u('3G6A5W338E', gsrs('iqm', 'caffeine', 'CAFFEINE'))],
    groups: [{ group: 'Caffeine' }],
  },
  { ingredient_id: 'ing_dmaa', name: '1,3-Dimethylamylamine (DMAA)', kind: 'stimulant', synonyms: ['DMAA', '1,3-Dimethylamylamine', 'Methylhexanamine', '1,3-DMAA', 'Methylhexaneamine', 'Geranamine'],
    uniis: [u('X49C572YQO', gsrs('banned', 'BANNED_DMAA', 'METHYLHEXANEAMINE'))] },
  { ingredient_id: 'ing_dmha', name: 'DMHA (2-Aminoisoheptane)', kind: 'stimulant', synonyms: ['DMHA', '2-Aminoisoheptane', 'Octodrine', '1,5-Dimethylhexylamine', '2-Amino-6-methylheptane'],
    uniis: [u('3GQ9E911BI', gsrs('banned', 'BANNED_DMHA', 'OCTODRINE'))] },
  { ingredient_id: 'ing_bmpea', name: 'BMPEA (beta-Methylphenethylamine)', kind: 'stimulant', synonyms: ['BMPEA', 'beta-Methylphenethylamine', 'β-Methylphenethylamine'] },
  { ingredient_id: 'ing_phenibut', name: 'Phenibut', kind: 'other', synonyms: ['4-Amino-3-phenylbutyric Acid', 'beta-Phenyl-gamma-aminobutyric Acid'],
    uniis: [u('T2M58D6LA8', gsrs('banned', 'BANNED_PHENIBUT', 'PHENIBUT'))] },
  { ingredient_id: 'ing_hordenine', name: 'Hordenine', kind: 'stimulant', synonyms: ['Hordenine HCl', 'Hordenine Hydrochloride', 'N,N-Dimethyltyramine'],
    uniis: [u('K3489CA082', gsrs('banned', 'ADD_HORDENINE', 'HORDENINE'))], groups: [{ group: 'Hordenine' }] },
  { ingredient_id: 'ing_n_methyltyramine', name: 'N-Methyltyramine', kind: 'stimulant', synonyms: ['N-Methyl Tyramine', 'N-Methyltyramine HCl'] },
  { ingredient_id: 'ing_yohimbe', name: 'Yohimbe (Pausinystalia yohimbe bark)', kind: 'botanical',
    synonyms: ['Yohimbe', 'Yohimbe bark extract', 'Yohimbe extract', 'Yohimbe powder', 'Yohimbe bark', 'Pausinystalia yohimbe bark extract'],
    uniis: [u('9M051HS3S5', gsrs('banned', 'RISK_YOHIMBE', 'PAUSINYSTALIA YOHIMBE BARK'))], groups: [{ group: 'Yohimbe' }] },
  { ingredient_id: 'ing_yohimbine', name: 'Yohimbine', kind: 'stimulant', synonyms: ['Yohimbine HCl', 'Yohimbine Hydrochloride'] },
  { ingredient_id: 'ing_rauwolfia', name: 'Rauwolfia vomitoria', kind: 'botanical',
    synonyms: ['Rauwolfia vomitoria root extract', 'Rauwolfia root extract', 'Rauwolfia extract', 'Rauvolfia vomitoria'],
    uniis: [u('0A60B5M30L', gsrs('botanical', 'rauwolfia_vomitoria', 'RAUVOLFIA VOMITORIA WHOLE'))] },
  { ingredient_id: 'ing_rauwolscine', name: 'Rauwolscine (alpha-Yohimbine)', kind: 'stimulant', synonyms: ['Rauwolscine', 'alpha-Yohimbine', 'α-Yohimbine'] },
  { ingredient_id: 'ing_synephrine', name: 'Synephrine', kind: 'stimulant', synonyms: ['p-Synephrine', 'Synephrine HCl', 'Oxedrine'],
    uniis: [u('PEG5DP7434', gsrs('iqm', 'synephrine', 'Oxedrine'))] },
  { ingredient_id: 'ing_higenamine', name: 'Higenamine', kind: 'stimulant', synonyms: ['Higenamine HCl', 'Norcoclaurine'],
    uniis: [u('TBV5O16GAP', gsrs('banned', 'BANNED_HIGENAMINE', 'HIGENAMINE'))] },
  { ingredient_id: 'ing_octopamine', name: 'Octopamine', kind: 'stimulant', synonyms: ['Octopamine HCl'],
    uniis: [u('14O50WS8JD', gsrs('banned', 'BANNED_ADD_OCTOPAMINE', 'OCTOPAMINE'))] },
  { ingredient_id: 'ing_theacrine', name: 'Theacrine', kind: 'stimulant', synonyms: ['TeaCrine', '1,3,7,9-Tetramethyluric Acid'],
    uniis: [u('EJ939L81MY', gsrs('iqm', 'theacrine', 'THEACRINE'))] },
  { ingredient_id: 'ing_methylliberine', name: 'Methylliberine', kind: 'stimulant', synonyms: ['Dynamine', 'Methylliberine (Dynamine)'],
    uniis: [u('RY9AJC5PA7', gsrs('iqm', 'methylliberine', 'METHYLLIBERINE'))] },
  { ingredient_id: 'ing_theobromine', name: 'Theobromine', kind: 'stimulant', uniis: [u('OBD445WZ5P', gsrs('iqm', 'theobromine', 'THEOBROMINE'))] },

  // --- Amino acids and their derivatives ---------------------------------------------------------------
  { ingredient_id: 'ing_beta_alanine', name: 'Beta-Alanine', kind: 'amino_acid',
    synonyms: ['β-Alanine', 'Beta Alanine', 'Beta-Alanine, Micronized', 'CarnoSyn', 'CarnoSyn Beta-Alanine', '3-aminopropanoic acid', '3-Aminopropionic Acid'],
    uniis: [u('11P2JDE17B', label('219842', 'CarnoSyn: form Beta-Alanine'))], groups: [{ group: 'Beta-Alanine' }] },
  { ingredient_id: 'ing_l_citrulline', name: 'L-Citrulline', kind: 'amino_acid', synonyms: ['Citrulline', 'Citrulline, Micronized', 'L-Citrulline, Micronized'],
    uniis: [u('29VT07BGDA', gsrs('iqm', 'l_citrulline', 'CITRULLINE'))] },
  { ingredient_id: 'ing_citrulline_malate', name: 'Citrulline Malate 2:1', kind: 'amino_acid', synonyms: ['Citrulline Malate', 'L-Citrulline DL-Malate 2:1', 'L-Citrulline Malate', 'L-Citrulline DL-Malate'],
    groups: [{ group: 'Citrulline malate' }] },
  { ingredient_id: 'ing_creatine_monohydrate', name: 'Creatine Monohydrate', kind: 'amino_acid_derivative', synonyms: ['Creatine', 'Micronized Creatine Monohydrate'],
    uniis: [u('9603LN7R2Q', gsrs('iqm', 'creatine_monohydrate', 'CREATINE MONOHYDRATE'))], groups: [{ group: 'Creatine', form: 'Creatine Monohydrate' }] },
  { ingredient_id: 'ing_creatine_hcl', name: 'Creatine Hydrochloride', kind: 'amino_acid_derivative', synonyms: ['Creatine HCl', 'Creatine Hydrochloride (HCl)'] },
  { ingredient_id: 'ing_creatine_citrate', name: 'Creatine Citrate', kind: 'amino_acid_derivative' },
  { ingredient_id: 'ing_creatine_ethyl_ester', name: 'Creatine Ethyl Ester', kind: 'amino_acid_derivative', synonyms: ['Creatine Ethyl Ester HCl', 'CEE'] },
  { ingredient_id: 'ing_creatine_akg', name: 'Creatine Alpha-Ketoglutarate', kind: 'amino_acid_derivative', synonyms: ['Creatine AKG'],
    groups: [{ group: 'Creatine alpha-ketoglutarate' }] },
  { ingredient_id: 'ing_creatine_gluconate', name: 'Creatine Gluconate', kind: 'amino_acid_derivative' },
  { ingredient_id: 'ing_creatine_taurinate', name: 'Creatine Taurinate', kind: 'amino_acid_derivative' },
  { ingredient_id: 'ing_magnesium_creatine_chelate', name: 'Magnesium Creatine Chelate', kind: 'amino_acid_derivative', synonyms: ['MagnaPower', 'Creatine Magnesium Chelate'] },
  { ingredient_id: 'ing_betaine_anhydrous', name: 'Betaine Anhydrous', kind: 'amino_acid_derivative', synonyms: ['Betaine', 'Trimethylglycine', 'TMG', 'BetaPower'],
    uniis: [u('3SCV180C9W', gsrs('iqm', 'tmg_betaine', 'BETAINE'))], groups: [{ group: 'Betaine Anhydrous' }] },
  { ingredient_id: 'ing_l_theanine', name: 'L-Theanine', kind: 'amino_acid', synonyms: ['Theanine'],
    uniis: [u('8021PR16QO', gsrs('botanical', 'l_theanine', 'THEANINE'))], groups: [{ group: 'Theanine' }] },
  { ingredient_id: 'ing_l_tyrosine', name: 'L-Tyrosine', kind: 'amino_acid', synonyms: ['Tyrosine', 'L-Tyrosine, Instantized'],
    uniis: [u('42HK56048U', label('219819', 'L-Tyrosine'))], groups: [{ group: 'Tyrosine' }] },
  { ingredient_id: 'ing_n_acetyl_l_tyrosine', name: 'N-Acetyl L-Tyrosine', kind: 'amino_acid', synonyms: ['NALT', 'N-Acetyl-L-Tyrosine'] },
  { ingredient_id: 'ing_taurine', name: 'Taurine', kind: 'amino_acid', synonyms: ['L-Taurine', 'Micronized L-Taurine'],
    uniis: [u('1EQV5MLY3D', gsrs('iqm', 'taurine', 'TAURINE'))], groups: [{ group: 'Taurine' }] },
  { ingredient_id: 'ing_l_arginine', name: 'L-Arginine', kind: 'amino_acid', synonyms: ['Arginine', 'L-Arginine, Micronized'],
    uniis: [u('94ZLA3W45F', label('2219', 'L-Arginine, Micronized'))], groups: [{ group: 'Arginine' }] },
  { ingredient_id: 'ing_arginine_akg', name: 'Arginine Alpha-Ketoglutarate', kind: 'amino_acid_derivative',
    synonyms: ['AAKG', 'Arginine AKG', 'L-Arginine AKG', 'Arginine Alpha Ketoglutarate', 'L-Arginine Alpha Keto-Glutarate', 'L-Arginine Alpha-Ketoglutarate'] },
  { ingredient_id: 'ing_arginine_silicate_inositol', name: 'Arginine Silicate Inositol', kind: 'amino_acid_derivative', synonyms: ['Nitrosigine', 'Nitrosigine Arginine Silicate Inositol'],
    groups: [{ group: 'Arginine silicate inositol' }] },
  { ingredient_id: 'ing_agmatine_sulfate', name: 'Agmatine Sulfate', kind: 'amino_acid_derivative', synonyms: ['Agmatine'],
    uniis: [u('RU0176QL8I', gsrs('iqm', 'agmatine', 'AGMATINE SULFATE'))] },
  { ingredient_id: 'ing_l_carnitine', name: 'L-Carnitine', kind: 'amino_acid_derivative', synonyms: ['Carnitine', 'micronized L-Carnitine', 'Levocarnitine'],
    uniis: [u('0G389FZZ9M', gsrs('iqm', 'l_carnitine', 'LEVOCARNITINE'))] },
  { ingredient_id: 'ing_l_carnitine_l_tartrate', name: 'L-Carnitine L-Tartrate', kind: 'amino_acid_derivative', synonyms: ['Carnitine Tartrate', 'LCLT'] },
  { ingredient_id: 'ing_acetyl_l_carnitine', name: 'Acetyl-L-Carnitine', kind: 'amino_acid_derivative', synonyms: ['Acetyl L-Carnitine', 'ALCAR', 'N-Acetyl L-Carnitine', 'Acetyl-L-Carnitine HCl'],
    uniis: [u('6DH1W9VH8Q', gsrs('iqm', 'acetyl_l_carnitine', 'ACETYLCARNITINE'))], groups: [{ group: 'Acetyl L-Carnitine' }] },
  { ingredient_id: 'ing_l_leucine', name: 'L-Leucine', kind: 'amino_acid', synonyms: ['Leucine', 'L-Leucine, Micronized'],
    uniis: [u('GMW67QNF9C', label('2219', 'L-Leucine, Micronized'))], groups: [{ group: 'Leucine' }] },
  { ingredient_id: 'ing_l_isoleucine', name: 'L-Isoleucine', kind: 'amino_acid', synonyms: ['Isoleucine', 'L-Isoleucine, Micronized'],
    uniis: [u('04Y7590D77', label('219819', 'L-Isoleucine'))], groups: [{ group: 'Isoleucine' }] },
  { ingredient_id: 'ing_l_valine', name: 'L-Valine', kind: 'amino_acid', synonyms: ['Valine', 'L-Valine, Micronized'],
    uniis: [u('HG18B9YRS7', label('219819', 'L-Valine'))], groups: [{ group: 'Valine' }] },
  { ingredient_id: 'ing_l_lysine', name: 'L-Lysine', kind: 'amino_acid', synonyms: ['Lysine', 'L-Lysine Hydrochloride', 'L-Lysine HCl'],
    uniis: [u('K3Z4F929H6', label('219819', 'L-Lysine'))], groups: [{ group: 'Lysine' }] },
  { ingredient_id: 'ing_l_threonine', name: 'L-Threonine', kind: 'amino_acid', synonyms: ['Threonine'],
    uniis: [u('2ZD004190S', label('219819', 'L-Threonine'))], groups: [{ group: 'Threonine' }] },
  { ingredient_id: 'ing_l_tryptophan', name: 'L-Tryptophan', kind: 'amino_acid', synonyms: ['Tryptophan'],
    uniis: [u('8DUH1N11BX', label('219819', 'L-Tryptophan'))], groups: [{ group: 'Tryptophan' }] },
  { ingredient_id: 'ing_l_histidine', name: 'L-Histidine', kind: 'amino_acid', synonyms: ['Histidine'],
    uniis: [u('4QD397987E', label('219819', 'L-Histidine'))], groups: [{ group: 'Histidine' }] },
  { ingredient_id: 'ing_l_methionine', name: 'L-Methionine', kind: 'amino_acid', synonyms: ['Methionine', 'L-Methionine, Micronized'],
    uniis: [u('AE28F7PNPL', label('2219', 'L-Methionine, Micronized'))], groups: [{ group: 'Methionine' }] },
  { ingredient_id: 'ing_l_phenylalanine', name: 'L-Phenylalanine', kind: 'amino_acid', synonyms: ['Phenylalanine', 'LPA'],
    uniis: [u('47E5O17Y3R', label('2219', 'L-Phenylalanine'))], groups: [{ group: 'Phenylalanine' }] },
  { ingredient_id: 'ing_glycine', name: 'Glycine', kind: 'amino_acid', synonyms: ['L-Glycine', 'L-Glycine, Micronized'],
    uniis: [u('TE7660XO1C', label('2219', 'L-Glycine, Micronized'))], groups: [{ group: 'Glycine' }] },
  { ingredient_id: 'ing_l_glutamine', name: 'L-Glutamine', kind: 'amino_acid', synonyms: ['Glutamine'],
    uniis: [u('0RH81L854J', gsrs('iqm', 'l_glutamine', 'Glutamine'))] },
  { ingredient_id: 'ing_l_ornithine', name: 'L-Ornithine', kind: 'amino_acid', synonyms: ['Ornithine', 'L-Ornithine HCl'],
    uniis: [u('E524N2IXA3', gsrs('iqm', 'l_ornithine', 'ORNITHINE'))] },
  { ingredient_id: 'ing_ornithine_akg', name: 'Ornithine Alpha-Ketoglutarate', kind: 'amino_acid_derivative', synonyms: ['Ornithine AKG', 'OKG', 'L-Ornithine Alpha-Ketoglutarate'],
    groups: [{ group: 'Ornithine ketoglutarate' }] },
  { ingredient_id: 'ing_l_norvaline', name: 'L-Norvaline', kind: 'amino_acid', synonyms: ['Norvaline'],
    uniis: [u('A70UKS48FE', gsrs('iqm', 'l_norvaline', 'Norvaline'))] },
  { ingredient_id: 'ing_l_aspartic_acid', name: 'L-Aspartic Acid', kind: 'amino_acid', synonyms: ['Aspartic Acid'],
    uniis: [u('30KYC7MIAI', gsrs('iqm', 'l_aspartic_acid', 'ASPARTIC ACID'))] },
  { ingredient_id: 'ing_glycocyamine', name: 'Guanidinoacetic Acid', kind: 'amino_acid_derivative', synonyms: ['Glycocyamine', 'Guanidinoacetate', 'micronized Guanidinoacetate', 'GAA'],
    groups: [{ group: 'Glycocyamine' }] },
  { ingredient_id: 'ing_hmb', name: 'HMB (beta-Hydroxy beta-Methylbutyrate)', kind: 'amino_acid_derivative', synonyms: ['HMB', 'HMB powder', 'Calcium HMB', 'beta-Hydroxy beta-Methylbutyrate'],
    groups: [{ group: 'HMB Hydroxymethylbutyrate' }] },
  { ingredient_id: 'ing_alpha_ketoglutarate', name: 'Alpha-Ketoglutarate', kind: 'other', synonyms: ['AKG', 'micronized AKG', 'alpha-Ketoglutaric Acid'],
    uniis: [u('8ID597Z82X', gsrs('iqm', 'alpha_ketoglutarate', 'OXOGLURIC ACID'))], groups: [{ group: 'Alpha-Ketoglutarate' }] },

  // --- Nitrate sources, choline sources, other performance ingredients ---------------------------------
  { ingredient_id: 'ing_sodium_nitrate', name: 'Sodium Nitrate', kind: 'nitrate_source', uniis: [u('8M4L3H2ZVZ', gsrs('additives', 'ADD_SODIUM_NITRATE', 'SODIUM NITRATE'))] },
  { ingredient_id: 'ing_beetroot_extract', name: 'Beetroot Extract', kind: 'nitrate_source', synonyms: ['Beet Root Extract', 'Beta vulgaris Root Extract', 'Beet Root Powder'] },
  { ingredient_id: 'ing_alpha_gpc', name: 'Alpha-GPC', kind: 'choline_source',
    synonyms: ['L-Alpha-Glycerylphosphorylcholine', 'Alpha Glycerylphosphorylcholine', 'Alpha-Glyceryl Phosphoryl Choline', 'alpha-Glycerol Phosphoryl Choline', 'Choline Alfoscerate'],
    uniis: [u('60M22SGW66', gsrs('iqm', 'alpha_gpc', 'CHOLINE ALFOSCERATE'))], groups: [{ group: 'Alpha-GPC' }] },
  { ingredient_id: 'ing_choline', name: 'Choline', kind: 'choline_source', synonyms: ['Choline Bitartrate'],
    uniis: [u('N91BDP6H0X', gsrs('iqm', 'choline', 'Choline')), u('6K2W7T9V6Y', label('2219', 'Choline Bitartrate'))], groups: [{ group: 'Choline' }] },
  { ingredient_id: 'ing_huperzine_a', name: 'Huperzine A', kind: 'botanical', synonyms: ['Huperzia serrata Extract'],
    uniis: [u('0111871I23', gsrs('botanical', 'huperzine_a', 'HUPERZINE A'))] },
  { ingredient_id: 'ing_black_pepper_extract', name: 'Black Pepper Fruit Extract', kind: 'botanical', synonyms: ['Piper nigrum Fruit Extract', 'Piperine', 'BioPerine', 'Piperine beadlets'],
    uniis: [u('U71XL721QK', gsrs('iqm', 'piperine', 'PIPERINE'))], groups: [{ group: 'Piperine' }] },
  { ingredient_id: 'ing_glycerol', name: 'Glycerol', kind: 'other', synonyms: ['Glycerol Powder', 'Glycerin'] },
  { ingredient_id: 'ing_sodium_bicarbonate', name: 'Sodium Bicarbonate', kind: 'buffer', synonyms: ['Bicarbonate of Soda'],
    uniis: [u('8MDF5V39QO', gsrs('other', 'NHA_SODIUM_BICARBONATE', 'Sodium bicarbonate'))] },
  { ingredient_id: 'ing_atp', name: 'Adenosine Triphosphate (ATP)', kind: 'other', synonyms: ['ATP', 'Adenosine 5\'-Triphosphate', 'Adenosine 5\'-Triphosphate Disodium', 'Peak ATP'],
    uniis: [u('8L70Q75FXE', gsrs('iqm', 'atp', 'ADENOSINE TRIPHOSPHATE'))], groups: [{ group: 'Adenosine triphosphate' }] },
  { ingredient_id: 'ing_d_ribose', name: 'D-Ribose', kind: 'carbohydrate', synonyms: ['Ribose'], uniis: [u('681HV46001', gsrs('iqm', 'd_ribose', 'Ribose, D-'))] },
  { ingredient_id: 'ing_glucuronolactone', name: 'Glucuronolactone', kind: 'other', synonyms: ['D-Glucuronolactone'],
    uniis: [u('XE4Y3016M9', gsrs('iqm', 'glucuronolactone', 'GLUCUROLACTONE'))] },
  { ingredient_id: 'ing_nadh', name: 'NADH', kind: 'other', synonyms: ['Nicotinamide Adenine Dinucleotide Hydride', 'Nicotinamide Adenine Dinucleotide'],
    uniis: [u('4J24DQ0916', gsrs('iqm', 'nadh', 'NADH'))] },
  { ingredient_id: 'ing_astaxanthin', name: 'Astaxanthin', kind: 'other', uniis: [u('8XPW32PR7I', gsrs('iqm', 'astaxanthin', 'ASTAXANTHIN'))], groups: [{ group: 'Astaxanthin' }] },
  { ingredient_id: 'ing_quercetin', name: 'Quercetin', kind: 'other', uniis: [u('9IKM0I5T1E', gsrs('iqm', 'quercetin', 'QUERCETIN'))], groups: [{ group: 'Quercetin' }] },
  { ingredient_id: 'ing_resveratrol', name: 'Resveratrol', kind: 'other', synonyms: ['trans-Resveratrol', 'resVida Trans-Resveratrol', 'resVida'],
    uniis: [u('Q369O8926L', gsrs('iqm', 'resveratrol', 'Resveratrol'))], groups: [{ group: 'Resveratrol' }] },

  // --- Botanicals ----------------------------------------------------------------------------------------
  { ingredient_id: 'ing_green_tea', name: 'Green Tea (Camellia sinensis leaf)', kind: 'botanical', synonyms: ['Green Tea', 'Green Tea extract', 'Green Tea Leaf Extract', 'Camellia sinensis Leaf Extract'],
    uniis: [u('W2ZU1RY8B0', gsrs('botanical', 'green_tea_leaf', 'GREEN TEA LEAF'))] },
  { ingredient_id: 'ing_guarana', name: 'Guarana', kind: 'botanical', synonyms: ['Guarana Seed Extract', 'Paullinia cupana Seed Extract'], uniis: [u('52U584F1CA', gsrs('iqm', 'guarana', 'GUARANA'))] },
  { ingredient_id: 'ing_olive_leaf', name: 'Olive Leaf (Olea europaea)', kind: 'botanical', synonyms: ['Olive leaf extract', 'Olive Leaf'],
    uniis: [u('MJ95C3OH47', gsrs('botanical', 'olive_leaf_powder', 'OLEA EUROPAEA (OLIVE) LEAF POWDER'))] },
  { ingredient_id: 'ing_rhodiola_rosea', name: 'Rhodiola rosea', kind: 'botanical', synonyms: ['Rhodiola rosea root extract', 'Rhodiola Root Extract', 'Rhodiola'],
    uniis: [u('3S5ITS5ULN', gsrs('botanical', 'rhodiola_rosea_root', 'SEDUM ROSEUM ROOT'))] },
  { ingredient_id: 'ing_capsicum', name: 'Capsicum (Cayenne Pepper) Extract', kind: 'botanical', synonyms: ['Capsimax', 'Capsimax Capsicum fruit extract', 'Capsicum Extract', 'Cayenne Pepper Extract', 'Capsicum annuum Fruit Extract'],
    uniis: [u('6M47G7C4SY', gsrs('botanical', 'cayenne_pepper', 'RED PEPPER'))], groups: [{ group: 'Capsicum' }] },
  { ingredient_id: 'ing_fenugreek', name: 'Fenugreek (Trigonella foenum-graecum seed)', kind: 'botanical', synonyms: ['Fenugreek', 'Fenugreek extract', 'Fenugreek Seed Extract'],
    uniis: [u('654825W09Z', gsrs('botanical', 'fenugreek_seed', 'FENUGREEK SEED'))], groups: [{ group: 'Fenugreek' }] },
  { ingredient_id: 'ing_saw_palmetto', name: 'Saw Palmetto', kind: 'botanical', synonyms: ['Saw Palmetto Fruit Extract', 'Saw Palmetto Berry Extract'],
    uniis: [u('J7WWH9M8QS', gsrs('iqm', 'saw_palmetto', 'SAW PALMETTO'))], groups: [{ group: 'Saw Palmetto' }] },
  { ingredient_id: 'ing_wild_yam', name: 'Wild Yam (Dioscorea villosa)', kind: 'botanical', synonyms: ['Wild Yam', 'Wild Yam extract', 'Wild Yam Root Extract'],
    uniis: [u('IWY3IWX2G8', gsrs('iqm', 'wild_yam', 'DIOSCOREA VILLOSA TUBER'))], groups: [{ group: 'Wild Yam' }] },
  { ingredient_id: 'ing_cinnamon', name: 'Cinnamon', kind: 'botanical', synonyms: ['Cinnamon extract', 'Cinnamon Bark Extract'],
    uniis: [u('5S29HWU6QB', gsrs('botanical', 'cinnamon', 'CINNAMON'))], groups: [{ group: 'Cinnamon' }] },
  { ingredient_id: 'ing_lions_mane', name: "Lion's Mane (Hericium erinaceus)", kind: 'botanical', synonyms: ["Lion's Mane", "Lion's Mane powder", 'Hericium erinaceus', "Lion's Mane Mushroom"],
    uniis: [u('Y62T8P9AAP', gsrs('botanical', 'lion_s_mane', 'Hericium erinaceus whole'))], groups: [{ group: 'Hericium mushroom' }] },
  { ingredient_id: 'ing_cordyceps_militaris', name: 'Cordyceps militaris', kind: 'botanical', synonyms: ['Cordyceps militaris Mushroom', 'Cordyceps militaris Fruiting Body'],
    uniis: [u('J617U5X7NN', gsrs('botanical', 'cordyceps_mushroom_powder', 'CORDYCEPS MILITARIS WHOLE'))] },
  { ingredient_id: 'ing_reishi', name: 'Reishi (Ganoderma lucidum)', kind: 'botanical', synonyms: ['Reishi', 'Ganoderma lucidum', 'Reishi Mushroom'],
    uniis: [u('TKD8LH0X2Z', gsrs('botanical', 'reishi_mushroom', 'REISHI'))] },
  { ingredient_id: 'ing_shiitake', name: 'Shiitake (Lentinula edodes)', kind: 'botanical', synonyms: ['Shiitake', 'Lentinula edodes', 'Shiitake Mushroom'],
    uniis: [u('1A64QN2D2F', gsrs('botanical', 'shiitake_mushroom', 'SHIITAKE MUSHROOM'))] },
  { ingredient_id: 'ing_king_oyster_mushroom', name: 'King Oyster Mushroom (Pleurotus eryngii)', kind: 'botanical', synonyms: ['Pleurotus eryngii', 'King Oyster Mushroom'] },
  { ingredient_id: 'ing_turkey_tail', name: 'Turkey Tail (Trametes versicolor)', kind: 'botanical', synonyms: ['Trametes versicolor', 'Turkey Tail', 'Coriolus versicolor'] },
  { ingredient_id: 'ing_amla', name: 'Amla (Phyllanthus emblica fruit)', kind: 'botanical', synonyms: ['Capros', 'Amla', 'Phyllanthus emblica Fruit Extract', 'Indian Gooseberry'] },
  // Electrolyte drink powders (real labels 306183, 307773): DSLD files it under "Coconut", a group other coconut rows share, so no group claim.
  { ingredient_id: 'ing_coconut_water', name: 'Coconut Water', kind: 'botanical', synonyms: ['Coconut Water, Powder'],
    uniis: [u('267F5Y81NT', label('306183', 'Coconut Water, Powder'))] },
  { ingredient_id: 'ing_nattokinase', name: 'Nattokinase', kind: 'other', synonyms: ['NSK-SD', 'NSK-SD40'], uniis: [u('H81695M5OP', gsrs('iqm', 'nattokinase', 'NATTOKINASE'))] },

  // --- Vitamins ------------------------------------------------------------------------------------------
  { ingredient_id: 'ing_vitamin_a', name: 'Vitamin A', kind: 'vitamin', uniis: [u('81G40H8B0T', gsrs('iqm', 'vitamin_a', 'VITAMIN A'))], groups: [{ group: 'Vitamin A' }] },
  { ingredient_id: 'ing_vitamin_c', name: 'Vitamin C', kind: 'vitamin', synonyms: ['Ascorbic Acid'], uniis: [u('PQ6CK8PD0R', gsrs('iqm', 'vitamin_c', 'Ascorbic Acid'))], groups: [{ group: 'Vitamin C' }] },
  { ingredient_id: 'ing_vitamin_d', name: 'Vitamin D', kind: 'vitamin', synonyms: ['Vitamin D3', 'Cholecalciferol'], uniis: [u('9VU1KI44GP', gsrs('iqm', 'vitamin_d', 'VITAMIN D'))], groups: [{ group: 'Vitamin D' }] },
  { ingredient_id: 'ing_vitamin_e', name: 'Vitamin E', kind: 'vitamin', groups: [{ group: 'Vitamin E' }] },
  { ingredient_id: 'ing_thiamin', name: 'Thiamin (Vitamin B1)', kind: 'vitamin', synonyms: ['Thiamin', 'Thiamine', 'Vitamin B1', 'Thiamine HCl', 'Thiamine Hydrochloride', 'Thiamine Mononitrate'],
    uniis: [u('X66NSO3N35', gsrs('iqm', 'vitamin_b1_thiamine', 'THIAMINE'))], groups: [{ group: 'Thiamin' }, { group: 'Vitamin B1' }] },
  { ingredient_id: 'ing_riboflavin', name: 'Riboflavin (Vitamin B2)', kind: 'vitamin', synonyms: ['Riboflavin', 'Vitamin B2'],
    uniis: [u('TLM2976OFR', gsrs('iqm', 'vitamin_b2_riboflavin', 'Riboflavin'))], groups: [{ group: 'Riboflavin' }, { group: 'Vitamin B2' }] },
  { ingredient_id: 'ing_niacin', name: 'Niacin', kind: 'vitamin', synonyms: ['Vitamin B3', 'Nicotinic Acid', 'Niacinamide', 'Nicotinamide'],
    uniis: [u('2679MF687A', label('1179', 'Niacin')), u('25X51I8RD4', label('1179', 'Niacin: form Niacinamide'))], groups: [{ group: 'Niacin' }, { group: 'Vitamin B3' }] },
  { ingredient_id: 'ing_pantothenic_acid', name: 'Pantothenic Acid (Vitamin B5)', kind: 'vitamin', synonyms: ['Pantothenic Acid', 'Vitamin B5', 'Calcium Pantothenate', 'D-Calcium Pantothenate'],
    uniis: [u('19F5HK2737', gsrs('iqm', 'vitamin_b5_pantothenic', 'PANTOTHENIC ACID'))], groups: [{ group: 'Pantothenic Acid' }] },
  { ingredient_id: 'ing_vitamin_b6', name: 'Vitamin B6', kind: 'vitamin', synonyms: ['Pyridoxine Hydrochloride', 'Pyridoxine HCl', 'Pyridoxine'],
    uniis: [u('KV2JZ1BI6Z', gsrs('iqm', 'vitamin_b6_pyridoxine', 'PYRIDOXINE')), u('68Y4CF58BV', label('1179', 'vitamin B: form Pyridoxine Hydrochloride'))],
    groups: [{ group: 'Vitamin B6' }, { group: 'Vitamin B6 (pyridoxine)' }] },
  { ingredient_id: 'ing_biotin', name: 'Biotin', kind: 'vitamin', synonyms: ['Vitamin B7', 'D-Biotin'], uniis: [u('6SO6U10H04', gsrs('iqm', 'vitamin_b7_biotin', 'BIOTIN'))], groups: [{ group: 'Biotin' }] },
  { ingredient_id: 'ing_folate', name: 'Folate', kind: 'vitamin', synonyms: ['Folic Acid', 'Vitamin B9'], uniis: [u('935E97BOY8', gsrs('iqm', 'vitamin_b9_folate', 'Folic acid'))], groups: [{ group: 'Folate' }] },
  { ingredient_id: 'ing_vitamin_b12', name: 'Vitamin B12', kind: 'vitamin', synonyms: ['Cyanocobalamin', 'Methylcobalamin'],
    uniis: [u('P6YC3EG204', gsrs('iqm', 'vitamin_b12_cobalamin', 'Cyanocobalamin'))], groups: [{ group: 'Vitamin B12' }] },

  // --- Minerals ------------------------------------------------------------------------------------------
  { ingredient_id: 'ing_calcium', name: 'Calcium', kind: 'mineral',
    uniis: [u('SY7Q814VUP', label('1179', 'Calcium')), u('4BBS3A53GJ', label('219819', 'Calcium: form Calcium Citrate Malate'))], groups: [{ group: 'Calcium' }] },
  { ingredient_id: 'ing_magnesium', name: 'Magnesium', kind: 'mineral', uniis: [u('I38ZP9992A', gsrs('iqm', 'magnesium', 'Magnesium'))], groups: [{ group: 'Magnesium' }] },
  { ingredient_id: 'ing_iron', name: 'Iron', kind: 'mineral', uniis: [u('E1UOL152H7', gsrs('iqm', 'iron', 'Iron'))], groups: [{ group: 'Iron' }] },
  { ingredient_id: 'ing_zinc', name: 'Zinc', kind: 'mineral', uniis: [u('J41CSQ7QDS', gsrs('iqm', 'zinc', 'Zinc'))], groups: [{ group: 'Zinc' }] },
  { ingredient_id: 'ing_phosphorus', name: 'Phosphorus', kind: 'mineral', uniis: [u('27YLU75U4W', gsrs('iqm', 'phosphorus', 'PHOSPHORUS'))], groups: [{ group: 'Phosphorus' }] },
  { ingredient_id: 'ing_boron', name: 'Boron', kind: 'mineral', uniis: [u('N9E3X5056Q', gsrs('iqm', 'boron', 'Boron'))], groups: [{ group: 'Boron' }] },
  { ingredient_id: 'ing_chloride', name: 'Chloride', kind: 'mineral', uniis: [u('Q32ZN48698', gsrs('iqm', 'chloride', 'Chloride ion'))], groups: [{ group: 'Chloride' }] },
  { ingredient_id: 'ing_sodium', name: 'Sodium', kind: 'mineral', synonyms: ['Sodium Chloride'],
    uniis: [u('9NEZ333N27', label('1179', 'Sodium')), u('LYR4M0NH37', gsrs('iqm', 'sodium', 'Sodium cation')), u('451W47IQ8X', label('1179', 'Sodium: form Sodium Chloride'))],
    groups: [{ group: 'Sodium' }] },
  { ingredient_id: 'ing_potassium', name: 'Potassium', kind: 'mineral', synonyms: ['Potassium Chloride'],
    uniis: [u('RWP5GA015D', label('219842', 'Potassium'))], groups: [{ group: 'Potassium' }] },
  // A salt declared as an ingredient in its own right (real labels 306183, 307773; DSLD's uniiCode there is the placeholder "0").
  { ingredient_id: 'ing_himalayan_salt', name: 'Himalayan Salt', kind: 'mineral', synonyms: ['Himalayan Rock Salt', 'Pink Himalayan Salt'],
    groups: [{ group: 'Salt (Himalayan)' }] },

  // --- Nutrition facts a label declares in its panel ----------------------------------------------------
  { ingredient_id: 'ing_calories', name: 'Calories', kind: 'nutrition_fact', synonyms: ['Calorie', 'Total Calories'] },
  { ingredient_id: 'ing_calories_from_fat', name: 'Calories from Fat', kind: 'nutrition_fact' },
  { ingredient_id: 'ing_total_fat', name: 'Total Fat', kind: 'nutrition_fact', synonyms: ['Fat'], groups: [{ group: 'Fat (unspecified)' }] },
  { ingredient_id: 'ing_total_carbohydrate', name: 'Total Carbohydrate', kind: 'nutrition_fact', synonyms: ['Total Carbohydrates', 'Carbohydrate', 'Carbohydrates'],
    groups: [{ group: 'Carbohydrate' }] },
  { ingredient_id: 'ing_total_sugars', name: 'Total Sugars', kind: 'nutrition_fact', synonyms: ['Sugars', 'Sugar', 'Total Sugar'] },
  { ingredient_id: 'ing_added_sugars', name: 'Added Sugars', kind: 'nutrition_fact', synonyms: ['Added Sugar', 'Includes Added Sugars'] },
  { ingredient_id: 'ing_sugar_alcohols', name: 'Sugar Alcohols', kind: 'nutrition_fact', synonyms: ['Sugar Alcohol'], groups: [{ group: 'Sugar Alcohol' }] },
  { ingredient_id: 'ing_protein', name: 'Protein', kind: 'nutrition_fact', synonyms: ['Total Protein'], groups: [{ group: 'Protein (unspecified)' }] },
];
