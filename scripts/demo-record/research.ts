/**
 * Research context per ingredient: the amounts that published research
 * studied, with the publication named by title and year. Only publications we
 * are sure of are cited; no URL is given where we could not check one. A
 * studied range is context for a dose comparison, never evidence that a
 * product is effective, safe or suitable.
 */
export interface ResearchSpec {
  ingredient: string;
  rangeLow: number | null;
  rangeHigh: number | null;
  rangeUnit: string | null;
  rangeBasis: string | null;
  population: string | null;
  evidence: string;
  title: string;
  year: number;
  /** Who published it, where that is an organisation; null for a single trial (its authors). */
  authority: string | null;
  kind: 'position_stand' | 'consensus_statement' | 'review' | 'trial' | 'reference_intake';
}

const ISSN_CAFFEINE = 'International Society of Sports Nutrition position stand: caffeine and exercise performance';
const ISSN_BETA_ALANINE = 'International Society of Sports Nutrition position stand: Beta-Alanine';
const ISSN_CREATINE = 'International Society of Sports Nutrition position stand: safety and efficacy of creatine supplementation in exercise, sport, and medicine';
const ISSN_BICARBONATE = 'International Society of Sports Nutrition position stand: sodium bicarbonate and exercise performance';
const ISSN_ENERGY_DRINKS = 'International Society of Sports Nutrition position stand: energy drinks';
const ISSN_REVIEW_2018 = 'ISSN exercise & sports nutrition review update: research & recommendations';
const IOC_2018 = 'IOC consensus statement: dietary supplements and the high-performance athlete';
const DRI_B_VITAMINS =
  'Dietary Reference Intakes for Thiamin, Riboflavin, Niacin, Vitamin B6, Folate, Vitamin B12, Pantothenic Acid, Biotin, and Choline';

export const research: ResearchSpec[] = [
  {
    ingredient: 'ing_caffeine', rangeLow: 3, rangeHigh: 6, rangeUnit: 'mg/kg body mass', rangeBasis: 'single dose, typically about 60 minutes before exercise',
    population: 'trained and recreationally active adults',
    evidence: 'Caffeine has been shown to acutely enhance several aspects of exercise performance at 3–6 mg/kg body mass; lower doses (about 2 mg/kg) have also been studied, and side effects become more frequent at very high doses.',
    title: ISSN_CAFFEINE, year: 2021, authority: 'International Society of Sports Nutrition', kind: 'position_stand',
  },
  {
    ingredient: 'ing_caffeine', rangeLow: 3, rangeHigh: 6, rangeUnit: 'mg/kg body mass', rangeBasis: 'before exercise; lower doses (1–3 mg/kg) also studied during exercise',
    population: 'high-performance athletes',
    evidence: 'Listed among the supplements with good evidence of performance benefit in some exercise settings.',
    title: IOC_2018, year: 2018, authority: 'International Olympic Committee', kind: 'consensus_statement',
  },
  {
    ingredient: 'ing_beta_alanine', rangeLow: 4, rangeHigh: 6, rangeUnit: 'g/day', rangeBasis: 'daily, for at least 2–4 weeks, often in divided doses',
    population: 'adults performing high-intensity exercise',
    evidence: 'Daily beta-alanine raises muscle carnosine; performance effects were most visible in high-intensity efforts of about 1–4 minutes. Tingling (paraesthesia) is the commonly reported side effect, reduced with divided doses.',
    title: ISSN_BETA_ALANINE, year: 2015, authority: 'International Society of Sports Nutrition', kind: 'position_stand',
  },
  {
    ingredient: 'ing_creatine_monohydrate', rangeLow: 3, rangeHigh: 5, rangeUnit: 'g/day', rangeBasis: 'daily maintenance, after or instead of a loading phase (about 0.3 g/kg/day for 5–7 days)',
    population: 'adults in exercise and sport',
    evidence: 'Creatine monohydrate is described as the most effective nutritional supplement available for increasing high-intensity exercise capacity and lean body mass during training.',
    title: ISSN_CREATINE, year: 2017, authority: 'International Society of Sports Nutrition', kind: 'position_stand',
  },
  {
    ingredient: 'ing_creatine_monohydrate', rangeLow: 3, rangeHigh: 5, rangeUnit: 'g/day', rangeBasis: 'maintenance, after about 20 g/day for 5 days of loading',
    population: 'high-performance athletes',
    evidence: 'Listed among the supplements with good evidence of performance benefit, mainly for repeated high-intensity efforts and training adaptation.',
    title: IOC_2018, year: 2018, authority: 'International Olympic Committee', kind: 'consensus_statement',
  },
  {
    ingredient: 'ing_sodium_bicarbonate', rangeLow: 0.2, rangeHigh: 0.5, rangeUnit: 'g/kg body mass', rangeBasis: 'single dose before exercise; 0.3 g/kg is most often studied',
    population: 'adults performing high-intensity exercise',
    evidence: 'Improves performance in muscular endurance and high-intensity efforts lasting about 30 seconds to 12 minutes in many studies; gastrointestinal discomfort is common.',
    title: ISSN_BICARBONATE, year: 2021, authority: 'International Society of Sports Nutrition', kind: 'position_stand',
  },
  {
    ingredient: 'ing_sodium_nitrate', rangeLow: 310, rangeHigh: 560, rangeUnit: 'mg nitrate', rangeBasis: 'acute dose of nitrate, 2–3 hours before exercise; the nitrate, not the salt weight',
    population: 'athletes; smaller effects reported in highly trained athletes',
    evidence: 'Dietary nitrate is listed among the supplements with good evidence of performance benefit in some endurance settings.',
    title: IOC_2018, year: 2018, authority: 'International Olympic Committee', kind: 'consensus_statement',
  },
  {
    ingredient: 'ing_beetroot_extract', rangeLow: 310, rangeHigh: 560, rangeUnit: 'mg nitrate', rangeBasis: 'nitrate delivered, usually as beetroot juice; extract weight alone does not state the nitrate dose',
    population: 'athletes',
    evidence: 'Studied as a source of dietary nitrate; a label that states only the extract weight does not say how much nitrate a serving provides.',
    title: IOC_2018, year: 2018, authority: 'International Olympic Committee', kind: 'consensus_statement',
  },
  {
    ingredient: 'ing_citrulline_malate', rangeLow: 8, rangeHigh: 8, rangeUnit: 'g', rangeBasis: 'single dose, about one hour before resistance exercise',
    population: 'resistance-trained men',
    evidence: 'In one trial, 8 g of citrulline malate before bench-press sets increased repetitions and reduced reported soreness; the evidence base is small.',
    title: 'Citrulline malate enhances athletic anaerobic performance and relieves muscle soreness', year: 2010, authority: null, kind: 'trial',
  },
  {
    ingredient: 'ing_l_citrulline', rangeLow: 3, rangeHigh: 6, rangeUnit: 'g/day', rangeBasis: 'amounts used in short supplementation studies',
    population: 'adults',
    evidence: 'Reviewed among nitric-oxide precursors; evidence for performance effects is limited and mixed.',
    title: ISSN_REVIEW_2018, year: 2018, authority: 'International Society of Sports Nutrition', kind: 'review',
  },
  {
    ingredient: 'ing_betaine_anhydrous', rangeLow: 2.5, rangeHigh: 2.5, rangeUnit: 'g/day', rangeBasis: 'daily, in supplementation studies of several weeks',
    population: 'resistance-trained adults',
    evidence: 'Reviewed with mixed findings on strength, power and body composition.',
    title: ISSN_REVIEW_2018, year: 2018, authority: 'International Society of Sports Nutrition', kind: 'review',
  },
  {
    ingredient: 'ing_l_theanine', rangeLow: 100, rangeHigh: 100, rangeUnit: 'mg', rangeBasis: 'single dose, combined with 50 mg caffeine',
    population: 'healthy adults',
    evidence: 'Combined with caffeine, improved accuracy on an attention-switching task and reduced susceptibility to distraction in a small study; these are cognitive measures, not exercise outcomes.',
    title: 'The combined effects of L-theanine and caffeine on cognitive performance and mood', year: 2008, authority: null, kind: 'trial',
  },
  {
    ingredient: 'ing_l_theanine', rangeLow: 250, rangeHigh: 250, rangeUnit: 'mg', rangeBasis: 'single dose, alone and combined with 150 mg caffeine',
    population: 'healthy adults',
    evidence: 'Cognition and mood measures after L-theanine, caffeine and the combination; effects of the combination were mostly on speed and accuracy of cognitive tasks.',
    title: 'The effects of L-theanine, caffeine and their combination on cognition and mood', year: 2008, authority: null, kind: 'trial',
  },
  {
    ingredient: 'ing_taurine', rangeLow: null, rangeHigh: null, rangeUnit: null, rangeBasis: null,
    population: 'consumers of energy drinks and energy shots',
    evidence: 'Discussed as a common energy-drink ingredient; the position stand concluded that the main ergogenic nutrients in these products appear to be caffeine and carbohydrate, with the contribution of other ingredients unclear.',
    title: ISSN_ENERGY_DRINKS, year: 2013, authority: 'International Society of Sports Nutrition', kind: 'position_stand',
  },
  {
    ingredient: 'ing_niacin', rangeLow: 16, rangeHigh: 35, rangeUnit: 'mg/day', rangeBasis: 'adult men: Recommended Dietary Allowance (16 mg niacin equivalents; 14 mg for women) to Tolerable Upper Intake Level (35 mg from supplements and fortified foods)',
    population: 'adults 19 years and older',
    evidence: 'Reference intakes, not a performance range; the upper level for supplemental niacin is set on flushing.',
    title: DRI_B_VITAMINS, year: 1998, authority: 'National Academies (Institute of Medicine)', kind: 'reference_intake',
  },
  {
    ingredient: 'ing_vitamin_b12', rangeLow: 2.4, rangeHigh: 2.4, rangeUnit: 'mcg/day', rangeBasis: 'adult Recommended Dietary Allowance; no Tolerable Upper Intake Level was set',
    population: 'adults 19 years and older',
    evidence: 'Reference intake, not a performance range.',
    title: DRI_B_VITAMINS, year: 1998, authority: 'National Academies (Institute of Medicine)', kind: 'reference_intake',
  },
];
