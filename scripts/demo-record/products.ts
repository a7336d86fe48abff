import type { BrandSlug } from './brands';
import { blend, label, revise, serving, type LabelLine, type Revision, type Serving, type StateSpec } from './label';

/**
 * The 44 fictional products of the demo Record, with every label state the
 * Record holds for them. Each later state is written as a revision of the one
 * before, so a reformulation reads as what changed.
 *
 * Depth: TRACKED products are monitored and have several states; CAPTURED
 * products have one captured label; REGISTERED products are known to exist
 * (identity only) and have no comparable state.
 */
export type Depth = 'TRACKED' | 'CAPTURED' | 'REGISTERED';

export interface ProductSpec {
  slug: string;
  brand: BrandSlug;
  name: string;
  form: 'powder' | 'capsule';
  depth: Depth;
  aliases: string[];
  retired?: { on: string; note: string };
  /** Monitoring spans; TRACKED products default to one span from their first state, open-ended. */
  monitoring?: { from: string; to?: string }[];
  states: StateSpec[];
}

type Identity = Pick<ProductSpec, 'slug' | 'brand' | 'name' | 'form' | 'aliases'> & Partial<Pick<ProductSpec, 'retired' | 'monitoring'>>;

function first(from: string, to: string, s: Serving, l: LabelLine[], note?: string): StateSpec {
  return { key: 'v1', from, to, classification: 'comparable', serving: s, label: l, note };
}

function tracked(id: Identity, v1: StateSpec, ...revisions: Revision[]): ProductSpec {
  const states = [v1];
  for (const r of revisions) states.push(revise(states[states.length - 1]!, r));
  return { ...id, depth: 'TRACKED', states };
}

function captured(id: Identity, on: string, s: Serving, l: LabelLine[]): ProductSpec {
  return { ...id, depth: 'CAPTURED', states: [{ key: 'v1', from: on, to: on, classification: 'comparable', serving: s, label: l }] };
}

function registered(id: Identity, on: string, note: string): ProductSpec {
  return { ...id, depth: 'REGISTERED', states: [{ key: 'v1', from: on, to: on, classification: 'identity_only', note }] };
}

export const products: ProductSpec[] = [
  // ---------------------------------------------------------------- Ironvale
  tracked(
    { slug: 'ironvale-surge', brand: 'ironvale', name: 'Surge', form: 'powder', aliases: ['IV Surge', 'Ironvale Surge'] },
    first('2026-01-06', '2026-04-28', serving(14.5, 'g', 30, '1 scoop (14.5 g)'), label(
      'L-Citrulline 6 g', 'Beta-Alanine 3.2 g', 'Betaine Anhydrous 2.5 g', 'Caffeine Anhydrous 300 mg', 'L-Theanine 150 mg', 'Sodium (as sodium chloride) 120 mg')),
    { key: 'v2', from: '2026-05-12', to: '2026-09-01', set: { 'Beta-Alanine': '2 g', 'Caffeine Anhydrous': '325 mg' } },
    { key: 'v3', from: '2026-09-15', to: 'latest', serving: { servingsPerContainer: 25 }, note: 'Same scoop; the container now holds 25 servings.' },
  ),
  tracked(
    { slug: 'ironvale-surge-stim-free', brand: 'ironvale', name: 'Surge Stim-Free', form: 'powder', aliases: ['IV Surge Stim-Free', 'Ironvale Surge Stim-Free'] },
    first('2026-01-06', '2026-06-22', serving(13, 'g', 30, '1 scoop (13 g)'), label(
      'L-Citrulline 6 g', 'Beta-Alanine 3.2 g', 'Betaine Anhydrous 2.5 g', 'Alpha-GPC 300 mg', 'Sodium Nitrate 500 mg')),
    { key: 'v2', from: '2026-07-07', to: 'latest', set: { 'Alpha-GPC': '150 mg' }, add: ['Agmatine Sulfate 500 mg'] },
  ),
  tracked(
    { slug: 'ironvale-pre-workout', brand: 'ironvale', name: 'Pre-Workout', form: 'powder', aliases: ['Ironvale Pre-Workout', 'Pre-Workout'] },
    first('2026-01-13', '2026-08-04', serving(10, 'g', 40, '1 scoop (10 g)'), label(
      'Citrulline Malate 2:1 6 g', 'Beta-Alanine 2 g', 'Caffeine Anhydrous 200 mg', 'Taurine 1 g')),
    { key: 'v2', from: '2026-08-18', to: 'latest', set: { 'Citrulline Malate 2:1': '8 g' } },
  ),
  captured(
    { slug: 'ironvale-focus-caps', brand: 'ironvale', name: 'Focus Caps', form: 'capsule', aliases: ['Ironvale Focus Caps', 'IV Focus'] },
    '2026-03-03',
    serving(2, 'capsule', 30),
    // Huperzine A is named on this label with no amount: stored as NULL, never as zero.
    label('Caffeine Anhydrous 200 mg', 'L-Tyrosine 500 mg', 'Alpha-GPC 150 mg', 'Huperzine A'),
  ),

  // ---------------------------------------------------------------- Quillmoor
  tracked(
    { slug: 'quillmoor-original', brand: 'quillmoor', name: 'Original', form: 'powder', aliases: ['Quillmoor Original', 'Original'] },
    first('2026-01-08', '2026-03-30', serving(11, 'g', 30, '1 scoop (11 g)'), label(
      'L-Citrulline 4 g', 'Beta-Alanine 3.2 g', 'Caffeine Anhydrous 250 mg', 'L-Tyrosine 1 g', 'Niacin 20 mg', 'Vitamin B12 (as cyanocobalamin) 50 mcg')),
    { key: 'v2', from: '2026-04-13', to: '2026-10-05', set: { 'Caffeine Anhydrous': '275 mg' } },
    { key: 'v3', from: '2026-10-19', to: 'latest', set: { 'L-Citrulline': '5 g' }, serving: { size: 12, description: '1 scoop (12 g)' } },
  ),
  tracked(
    { slug: 'quillmoor-nightshift', brand: 'quillmoor', name: 'Nightshift', form: 'powder', aliases: ['Quillmoor Nightshift'] },
    first('2026-01-08', '2026-07-27', serving(12, 'g', 30, '1 scoop (12 g)'), label(
      'L-Citrulline 6 g', 'Glycerol Powder 2 g', 'Betaine Anhydrous 2.5 g', 'L-Theanine 200 mg')),
    { key: 'v2', from: '2026-08-10', to: 'latest', set: { 'Glycerol Powder': '3 g' }, serving: { size: 13, description: '1 scoop (13 g)' } },
  ),
  tracked(
    { slug: 'quillmoor-pump-caps', brand: 'quillmoor', name: 'Pump Capsules', form: 'capsule', aliases: ['Quillmoor Pump Caps'] },
    first('2026-01-15', '2026-06-01', serving(4, 'capsule', 30), label(
      'L-Citrulline 1.6 g', 'Beetroot Extract 500 mg', 'Black Pepper Fruit Extract 5 mg')),
    { key: 'v2', from: '2026-06-15', to: 'latest', serving: { servingsPerContainer: 25 }, note: 'Bottle now holds 100 capsules instead of 120.' },
  ),
  tracked(
    {
      slug: 'quillmoor-legacy', brand: 'quillmoor', name: 'Legacy Formula', form: 'powder', aliases: ['Quillmoor Legacy'],
      retired: { on: '2026-07-31', note: 'Discontinued by the manufacturer: its product page now redirects to the brand home page. The product keeps its id and history.' },
      monitoring: [{ from: '2026-01-08', to: '2026-07-31' }],
    },
    first('2026-01-08', '2026-04-20', serving(11.5, 'g', 30, '1 scoop (11.5 g)'), label(
      'Caffeine Anhydrous 300 mg',
      blend('Ignition Matrix', '8.2 g', 'Beta-Alanine', 'Creatine Monohydrate', 'Betaine Anhydrous', 'L-Arginine'))),
    { key: 'v2', from: '2026-05-04', to: '2026-07-20', set: { 'Ignition Matrix': '7.5 g' }, serving: { size: 10.8, description: '1 scoop (10.8 g)' } },
  ),
  captured(
    { slug: 'quillmoor-rally', brand: 'quillmoor', name: 'Rally', form: 'powder', aliases: ['Quillmoor Rally'] },
    '2026-04-07',
    serving(9, 'g', 30, '1 scoop (9 g)'),
    label('Citrulline Malate 2:1 6 g', 'Caffeine Anhydrous 225 mg', 'L-Theanine 100 mg'),
  ),

  // ---------------------------------------------------------------- Brasswick Labs
  tracked(
    { slug: 'brasswick-pre-workout', brand: 'brasswick_labs', name: 'Pre-Workout', form: 'powder', aliases: ['Brasswick Pre-Workout', 'Pre-Workout', 'BWL Pre'] },
    first('2026-01-12', '2026-05-18', serving(9.5, 'g', 30, '1 scoop (9.5 g)'), label(
      'L-Citrulline 5 g', 'Beta-Alanine 3.2 g', 'Caffeine Anhydrous 275 mg', 'N-Acetyl L-Tyrosine 500 mg', 'Vitamin B6 (as pyridoxine HCl) 5 mg')),
    { key: 'v2', from: '2026-06-01', to: 'latest', set: { 'Caffeine Anhydrous': '300 mg' } },
  ),
  tracked(
    { slug: 'brasswick-overdrive', brand: 'brasswick_labs', name: 'Overdrive', form: 'powder', aliases: ['Brasswick Overdrive'] },
    {
      key: 'v1', from: '2026-01-12', to: '2026-06-30', classification: 'presence_only',
      serving: serving(12, 'g', 30, '1 scoop (12 g)'),
      label: label(blend('Overdrive Matrix', '12 g', 'L-Citrulline', 'Beta-Alanine', 'Betaine Anhydrous', 'Caffeine Anhydrous', 'Taurine', 'Huperzine A')),
      note: 'Fully proprietary blend: only the blend total is declared, so member amounts cannot be compared between states.',
    },
    { key: 'v2', from: '2026-07-14', to: 'latest', set: { 'Overdrive Matrix': '10 g' }, serving: { size: 10, description: '1 scoop (10 g)' },
      note: 'Fully proprietary blend: only the blend total is declared, so member amounts cannot be compared between states.' },
  ),
  captured(
    { slug: 'brasswick-nitro-caps', brand: 'brasswick_labs', name: 'Nitro Caps', form: 'capsule', aliases: ['Brasswick Nitro Caps'] },
    '2026-02-10',
    serving(3, 'capsule', 30),
    label('L-Arginine 1.5 g', 'Agmatine Sulfate 500 mg', 'Beetroot Extract 600 mg'),
  ),
  captured(
    { slug: 'brasswick-original', brand: 'brasswick_labs', name: 'Original', form: 'powder', aliases: ['Brasswick Original', 'Original'] },
    '2026-05-05',
    serving(10, 'g', 30, '1 scoop (10 g)'),
    label('Citrulline Malate 2:1 6 g', 'Beta-Alanine 2 g', 'Caffeine Anhydrous 200 mg'),
  ),

  // ---------------------------------------------------------------- Tallowfen Performance
  tracked(
    { slug: 'tallowfen-kindle', brand: 'tallowfen', name: 'Kindle', form: 'powder', aliases: ['Tallowfen Kindle'] },
    first('2026-01-07', '2026-03-09', serving(12, 'g', 25, '1 scoop (12 g)'), label(
      'L-Citrulline 6 g', 'Beta-Alanine 3.2 g', 'Caffeine Anhydrous 350 mg', 'Alpha-GPC 200 mg', 'Huperzine A 100 mcg')),
    { key: 'v2', from: '2026-03-23', to: '2026-08-24', set: { 'Caffeine Anhydrous': '300 mg' } },
    { key: 'v3', from: '2026-09-07', to: 'latest', set: { 'Alpha-GPC': '300 mg' } },
  ),
  tracked(
    { slug: 'tallowfen-kindle-caps', brand: 'tallowfen', name: 'Kindle Capsules', form: 'capsule', aliases: ['Tallowfen Kindle Caps'] },
    first('2026-01-07', '2026-05-25', serving(3, 'capsule', 30), label(
      'Caffeine Anhydrous 200 mg', 'L-Theanine 100 mg', 'L-Tyrosine 600 mg')),
    { key: 'v2', from: '2026-06-08', to: 'latest', set: { 'L-Theanine': '200 mg' } },
  ),
  tracked(
    { slug: 'tallowfen-original', brand: 'tallowfen', name: 'Original', form: 'powder', aliases: ['Tallowfen Original', 'Original', 'Kindle Original'] },
    first('2026-01-14', '2026-09-28', serving(11, 'g', 30, '1 scoop (11 g)'), label(
      'Citrulline Malate 2:1 8 g', 'Beta-Alanine 3.2 g', 'Caffeine Anhydrous 250 mg')),
    { key: 'v2', from: '2026-10-12', to: 'latest', add: ['Creatine Monohydrate 3 g'], serving: { size: 14, description: '1 scoop (14 g)' } },
  ),
  tracked(
    { slug: 'tallowfen-flint', brand: 'tallowfen', name: 'Flint', form: 'powder', aliases: ['Tallowfen Flint'] },
    first('2026-01-14', '2026-07-06', serving(10, 'g', 30, '1 scoop (10 g)'), label(
      'L-Citrulline 5 g', 'Beta-Alanine 3.2 g', 'Caffeine Anhydrous 200 mg', 'Sodium Nitrate 500 mg')),
    { key: 'v2', from: '2026-07-20', to: 'latest', remove: ['Sodium Nitrate'], add: ['Beetroot Extract 500 mg'] },
  ),
  registered(
    { slug: 'tallowfen-emberline', brand: 'tallowfen', name: 'Emberline', form: 'powder', aliases: ['Tallowfen Emberline'] },
    '2026-10-02',
    'Known from a retailer listing only; no label has been captured, so nothing about its formula can be compared.',
  ),

  // ---------------------------------------------------------------- Cobaltreed Nutrition
  tracked(
    { slug: 'cobaltreed-apex', brand: 'cobaltreed', name: 'Apex', form: 'powder', aliases: ['Cobaltreed Apex'] },
    first('2026-01-05', '2026-02-16', serving(13, 'g', 30, '1 scoop (13 g)'), label(
      'L-Citrulline 8 g', 'Beta-Alanine 3.2 g', 'Betaine Anhydrous 2.5 g', 'Sodium Nitrate 500 mg', 'Caffeine Anhydrous 300 mg')),
    { key: 'v2', from: '2026-03-02', to: '2026-06-08', set: { 'L-Citrulline': '6 g' }, serving: { size: 11, description: '1 scoop (11 g)' } },
    { key: 'v3', from: '2026-06-22', to: 'latest', set: { 'Beta-Alanine': '4 g' }, serving: { size: 12, description: '1 scoop (12 g)' } },
  ),
  tracked(
    { slug: 'cobaltreed-apex-stim-free', brand: 'cobaltreed', name: 'Apex Stim-Free', form: 'powder', aliases: ['Cobaltreed Apex Stim-Free'] },
    first('2026-01-05', '2026-10-26', serving(12, 'g', 30, '1 scoop (12 g)'), label(
      'L-Citrulline 8 g', 'Beta-Alanine 3.2 g', 'Betaine Anhydrous 2.5 g', 'Sodium Nitrate 500 mg')),
    { key: 'v2', from: '2026-11-09', to: 'latest', set: { 'Betaine Anhydrous': '1.25 g' } },
  ),
  captured(
    { slug: 'cobaltreed-pre-workout', brand: 'cobaltreed', name: 'Pre-Workout', form: 'powder', aliases: ['Cobaltreed Pre-Workout', 'Pre-Workout'] },
    '2026-02-24',
    serving(8, 'g', 30, '1 scoop (8 g)'),
    label('L-Citrulline 3 g', 'Beta-Alanine 1.6 g', 'Caffeine Anhydrous 150 mg'),
  ),
  tracked(
    { slug: 'cobaltreed-hydrate-pump', brand: 'cobaltreed', name: 'Hydrate Pump', form: 'powder', aliases: ['Cobaltreed Hydrate Pump'] },
    first('2026-01-20', '2026-04-06', serving(11, 'g', 30, '1 scoop (11 g)'), label(
      'L-Citrulline 4 g', 'Glycerol Powder 3 g', 'Taurine 2 g', 'Sodium (as sodium chloride) 300 mg', 'Potassium (as potassium chloride) 100 mg')),
    { key: 'v2', from: '2026-04-20', to: 'latest', note: 'New label artwork; every declared line and the serving are unchanged.' },
  ),
  captured(
    { slug: 'cobaltreed-ion-caps', brand: 'cobaltreed', name: 'Ion Caps', form: 'capsule', aliases: ['Cobaltreed Ion Caps'] },
    '2026-06-16',
    serving(2, 'capsule', 30),
    label('Caffeine Anhydrous 180 mg', 'Taurine 500 mg', 'Vitamin B12 (as methylcobalamin) 100 mcg'),
  ),

  // ---------------------------------------------------------------- Hollowmere Supply Co.
  tracked(
    { slug: 'hollowmere-pre-workout', brand: 'hollowmere', name: 'Pre-Workout', form: 'powder', aliases: ['Hollowmere Pre-Workout', 'Pre-Workout', 'HSC Pre-Workout'] },
    first('2026-01-09', '2026-07-13', serving(10, 'g', 30, '1 scoop (10 g)'), label(
      'L-Citrulline 6 g', 'Beta-Alanine 3.2 g', 'Caffeine Anhydrous 200 mg', 'Beetroot Extract 500 mg')),
    { key: 'v2', from: '2026-07-27', to: 'latest', set: { 'Caffeine Anhydrous': '250 mg' } },
  ),
  tracked(
    // Monitoring began in the middle of August, so an August receipt is partly covered.
    { slug: 'hollowmere-ember', brand: 'hollowmere', name: 'Ember', form: 'powder', aliases: ['Hollowmere Ember'] },
    first('2026-08-17', '2026-10-12', serving(9, 'g', 30, '1 scoop (9 g)'), label(
      'L-Citrulline 4 g', 'Beta-Alanine 2 g', 'Caffeine Anhydrous 225 mg', 'L-Tyrosine 500 mg')),
    { key: 'v2', from: '2026-10-26', to: 'latest', set: { 'Beta-Alanine': '3.2 g' } },
  ),
  tracked(
    { slug: 'hollowmere-steady-caps', brand: 'hollowmere', name: 'Steady Caps', form: 'capsule', aliases: ['Hollowmere Steady Caps'] },
    first('2026-01-09', '2026-09-14', serving(2, 'capsule', 30), label('Caffeine Anhydrous 100 mg', 'L-Theanine 200 mg')),
    { key: 'v2', from: '2026-09-28', to: 'latest', set: { 'Caffeine Anhydrous': '150 mg' } },
  ),
  captured(
    { slug: 'hollowmere-beet-fuel', brand: 'hollowmere', name: 'Beet Fuel', form: 'powder', aliases: ['Hollowmere Beet Fuel'] },
    '2026-03-17',
    serving(8, 'g', 30, '1 scoop (8 g)'),
    label('L-Citrulline 3 g', 'Beetroot Extract 1 g', 'Sodium Nitrate 250 mg'),
  ),

  // ---------------------------------------------------------------- Vantorra Sport
  tracked(
    { slug: 'vantorra-surge', brand: 'vantorra', name: 'Surge Pre-Workout', form: 'powder', aliases: ['Vantorra Surge', 'VS Pre'] },
    first('2026-01-16', '2026-05-04', serving(12, 'g', 30, '1 scoop (12 g)'), label(
      'Citrulline Malate 2:1 6 g', 'Beta-Alanine 3.2 g', 'Creatine Monohydrate 3 g', 'Caffeine Anhydrous 300 mg', 'Niacin 30 mg', 'Vitamin B12 (as cyanocobalamin) 250 mcg')),
    { key: 'v2', from: '2026-05-18', to: '2026-08-31', remove: ['Creatine Monohydrate'], serving: { size: 9, description: '1 scoop (9 g)' } },
    { key: 'v3', from: '2026-09-14', to: 'latest', set: { Niacin: '16 mg' } },
  ),
  tracked(
    { slug: 'vantorra-original', brand: 'vantorra', name: 'Original', form: 'powder', aliases: ['Vantorra Original', 'Original'] },
    first('2026-01-16', '2026-10-19', serving(7, 'g', 30, '1 scoop (7 g)'), label(
      'L-Citrulline 3 g', 'Beta-Alanine 1.6 g', 'Caffeine Anhydrous 175 mg', 'Taurine 1 g')),
    { key: 'v2', from: '2026-11-02', to: 'latest', set: { 'Caffeine Anhydrous': '200 mg' } },
  ),
  tracked(
    { slug: 'vantorra-pump', brand: 'vantorra', name: 'Pump', form: 'powder', aliases: ['Vantorra Pump'] },
    first('2026-01-16', '2026-06-29', serving(14, 'g', 20, '1 scoop (14 g)'), label(
      'L-Citrulline 8 g', 'Glycerol Powder 2 g', 'Agmatine Sulfate 1 g', 'Beetroot Extract 500 mg')),
    { key: 'v2', from: '2026-07-13', to: 'latest', serving: { servingsPerContainer: 25 }, note: 'Larger container: 25 servings.' },
  ),
  tracked(
    // Monitoring paused for two weeks in June (the brand site was being rebuilt).
    {
      slug: 'vantorra-kick', brand: 'vantorra', name: 'Kick', form: 'powder', aliases: ['Vantorra Kick'],
      monitoring: [{ from: '2026-01-16', to: '2026-05-31' }, { from: '2026-06-15' }],
    },
    first('2026-01-16', '2026-03-23', serving(9, 'g', 30, '1 scoop (9 g)'), label(
      'L-Citrulline 4 g', 'Beta-Alanine 2 g', 'Caffeine Anhydrous 250 mg', 'L-Carnitine L-Tartrate 1 g')),
    { key: 'v2', from: '2026-04-06', to: 'latest', set: { 'L-Carnitine L-Tartrate': '1.5 g' } },
  ),
  registered(
    { slug: 'vantorra-night-sprint', brand: 'vantorra', name: 'Night Sprint', form: 'powder', aliases: ['Vantorra Night Sprint'] },
    '2026-09-18',
    'Known from the manufacturer\'s announcement only; no label has been captured, so nothing about its formula can be compared.',
  ),

  // ---------------------------------------------------------------- Kestrelwyn Labs
  tracked(
    { slug: 'kestrelwyn-talon', brand: 'kestrelwyn', name: 'Talon', form: 'powder', aliases: ['Kestrelwyn Talon'] },
    first('2026-01-05', '2026-02-23', serving(11, 'g', 30, '1 scoop (11 g)'), label(
      'L-Citrulline 6 g', 'Beta-Alanine 3.2 g', 'Betaine Anhydrous 2.5 g', 'Caffeine Anhydrous 300 mg', 'Alpha-GPC 300 mg', 'Huperzine A 200 mcg')),
    { key: 'v2', from: '2026-03-09', to: '2026-07-06', set: { 'Huperzine A': '100 mcg' } },
    { key: 'v3', from: '2026-07-20', to: 'latest', set: { 'Caffeine Anhydrous': '350 mg' } },
  ),
  tracked(
    { slug: 'kestrelwyn-talon-caps', brand: 'kestrelwyn', name: 'Talon Capsules', form: 'capsule', aliases: ['Kestrelwyn Talon Caps'] },
    first('2026-01-05', '2026-04-13', serving(2, 'capsule', 30), label(
      'Caffeine Anhydrous 200 mg', 'N-Acetyl L-Tyrosine 350 mg', 'Alpha-GPC 150 mg')),
    { key: 'v2', from: '2026-04-27', to: 'latest', set: { 'N-Acetyl L-Tyrosine': '500 mg' } },
  ),
  tracked(
    { slug: 'kestrelwyn-pre-workout', brand: 'kestrelwyn', name: 'Pre-Workout', form: 'powder', aliases: ['Kestrelwyn Pre-Workout', 'Pre-Workout'] },
    first('2026-01-19', '2026-08-17', serving(8, 'g', 30, '1 scoop (8 g)'), label(
      'Caffeine Anhydrous 250 mg', 'Beta-Alanine 2 g', blend('Focus Matrix', '1.2 g', 'L-Tyrosine', 'Alpha-GPC', 'Huperzine A'))),
    { key: 'v2', from: '2026-08-31', to: 'latest', set: { 'Focus Matrix': '1.5 g' } },
  ),
  captured(
    { slug: 'kestrelwyn-buffer', brand: 'kestrelwyn', name: 'Buffer', form: 'powder', aliases: ['Kestrelwyn Buffer'] },
    '2026-05-19',
    serving(10, 'g', 30, '1 scoop (10 g)'),
    label('L-Citrulline 4 g', 'Beta-Alanine 3.2 g', 'Sodium Bicarbonate 1.5 g'),
  ),

  // ---------------------------------------------------------------- Oxenfjord
  tracked(
    // The manufacturer page has been unreadable since 2026-11-03 (see sources).
    { slug: 'oxenfjord-pre-workout', brand: 'oxenfjord', name: 'Pre-Workout', form: 'powder', aliases: ['Oxenfjord Pre-Workout', 'Pre-Workout'] },
    first('2026-01-07', '2026-06-15', serving(12, 'g', 30, '1 scoop (12 g)'), label(
      'L-Citrulline 6 g', 'Beta-Alanine 3.2 g', 'Betaine Anhydrous 2.5 g', 'Caffeine Anhydrous 200 mg', 'Taurine 1 g',
      'Sodium (as sodium chloride) 150 mg', 'Potassium (as potassium chloride) 100 mg')),
    { key: 'v2', from: '2026-06-29', to: '2026-11-02', serving: { servingsPerContainer: 20 }, note: 'Same scoop; the container now holds 20 servings.' },
  ),
  tracked(
    { slug: 'oxenfjord-fjell', brand: 'oxenfjord', name: 'Fjell', form: 'powder', aliases: ['Oxenfjord Fjell'] },
    first('2026-01-07', '2026-03-16', serving(10.5, 'g', 30, '1 scoop (10.5 g)'), label(
      'Citrulline Malate 2:1 8 g', 'Beta-Alanine 3.2 g', 'Caffeine Anhydrous 300 mg', 'L-Tyrosine 1 g')),
    { key: 'v2', from: '2026-03-30', to: '2026-09-21', set: { 'L-Tyrosine': '1.5 g' } },
    { key: 'v3', from: '2026-10-05', to: 'latest', set: { 'Caffeine Anhydrous': '250 mg' } },
  ),
  captured(
    { slug: 'oxenfjord-original', brand: 'oxenfjord', name: 'Original', form: 'powder', aliases: ['Oxenfjord Original', 'Original'] },
    '2026-02-03',
    serving(9, 'g', 30, '1 scoop (9 g)'),
    label('L-Citrulline 4 g', 'Beta-Alanine 2 g', 'Caffeine Anhydrous 180 mg'),
  ),
  captured(
    { slug: 'oxenfjord-fjell-caps', brand: 'oxenfjord', name: 'Fjell Capsules', form: 'capsule', aliases: ['Oxenfjord Fjell Caps'] },
    '2026-07-21',
    serving(2, 'capsule', 30),
    label('Caffeine Anhydrous 150 mg', 'L-Theanine 150 mg', 'Vitamin B6 (as pyridoxine HCl) 2 mg'),
  ),

  // ---------------------------------------------------------------- Drumlin & Vane
  tracked(
    { slug: 'drumlin-vane-keystone', brand: 'drumlin_and_vane', name: 'Keystone', form: 'powder', aliases: ['D&V Keystone', 'Drumlin & Vane Keystone'] },
    first('2026-01-12', '2026-04-27', serving(13, 'g', 30, '1 scoop (13 g)'), label(
      'L-Citrulline 6 g', 'Beta-Alanine 3.2 g', 'Creatine Monohydrate 5 g', 'Betaine Anhydrous 2.5 g', 'Caffeine Anhydrous 275 mg')),
    { key: 'v2', from: '2026-05-11', to: '2026-09-28', set: { 'Creatine Monohydrate': '3 g' }, serving: { size: 11, description: '1 scoop (11 g)' } },
    { key: 'v3', from: '2026-10-12', to: 'latest', set: { 'Caffeine Anhydrous': '300 mg' } },
  ),
  tracked(
    { slug: 'drumlin-vane-original', brand: 'drumlin_and_vane', name: 'Original', form: 'powder', aliases: ['Drumlin & Vane Original', 'Original', 'D&V Original'] },
    first('2026-01-12', '2026-06-08', serving(8.5, 'g', 30, '1 scoop (8.5 g)'), label(
      'Citrulline Malate 2:1 6 g', 'Beta-Alanine 1.6 g', 'Caffeine Anhydrous 200 mg', 'Taurine 500 mg')),
    { key: 'v2', from: '2026-06-22', to: 'latest', set: { Taurine: '1 g' }, serving: { size: 9, description: '1 scoop (9 g)' } },
  ),
  tracked(
    { slug: 'drumlin-vane-cairn-caps', brand: 'drumlin_and_vane', name: 'Cairn Capsules', form: 'capsule', aliases: ['D&V Cairn'] },
    first('2026-01-12', '2026-10-27', serving(3, 'capsule', 40), label(
      'Beetroot Extract 750 mg', 'L-Citrulline 1 g', 'Black Pepper Fruit Extract 5 mg')),
    { key: 'v2', from: '2026-11-10', to: 'latest', set: { 'Beetroot Extract': '1000 mg' } },
  ),
  captured(
    { slug: 'drumlin-vane-tarn', brand: 'drumlin_and_vane', name: 'Tarn Stim-Free', form: 'powder', aliases: ['D&V Tarn'] },
    '2026-08-25',
    serving(10, 'g', 30, '1 scoop (10 g)'),
    label('L-Citrulline 6 g', 'Glycerol Powder 2 g', 'Beta-Alanine 2 g'),
  ),
];

/** Products the tests and the docs name on purpose. */
export const notable = {
  namedWithoutAmount: { product: 'ironvale-focus-caps', declaredName: 'Huperzine A' },
  registered: ['tallowfen-emberline', 'vantorra-night-sprint'],
  retired: 'quillmoor-legacy',
  unreadableManufacturerSource: 'oxenfjord-pre-workout',
  monitoringBeganMidMonth: { product: 'hollowmere-ember', on: '2026-08-17' },
  monitoringGap: 'vantorra-kick',
  fullyProprietaryBlend: 'brasswick-overdrive',
  partialBlend: 'kestrelwyn-pre-workout',
  ambiguousAliases: ['Pre-Workout', 'Original'],
} as const;
