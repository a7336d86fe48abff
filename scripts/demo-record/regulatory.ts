/**
 * Regulatory records per ingredient: public FDA actions that can be checked
 * on fda.gov. `what_it_is` describes the filing itself; it is never an
 * approval, never a safety finding by the Evidence Record, and never a
 * statement about any product in this Record (no demo product declares
 * DMAA, DMHA, BMPEA or phenibut). `is_caution` marks the documented cautions:
 * an authority's own published caution about the ingredient.
 */
export interface RegulatorySpec {
  ingredient: string;
  kind: 'warning_letters' | 'agency_statement' | 'guidance';
  authority: string;
  year: number;
  title: string;
  whatItIs: string;
  isCaution: boolean;
  referenceTitle: string | null;
}

export const regulatory: RegulatorySpec[] = [
  {
    ingredient: 'ing_dmaa', kind: 'warning_letters', authority: 'U.S. Food and Drug Administration', year: 2012,
    title: 'FDA warning letters to firms marketing products containing DMAA',
    whatItIs: 'Letters the FDA sent in 2012 to companies marketing products labeled as dietary supplements that listed DMAA (1,3-dimethylamylamine), stating the agency\'s position that DMAA is not a lawful dietary ingredient. They are correspondence to those firms, not a statement about any product in this Record.',
    isCaution: false, referenceTitle: 'FDA warning letters (2012)',
  },
  {
    ingredient: 'ing_dmaa', kind: 'agency_statement', authority: 'U.S. Food and Drug Administration', year: 2013,
    title: 'FDA statement on DMAA in products marketed as dietary supplements',
    whatItIs: 'A public FDA statement from 2013 that it considers products labeled as dietary supplements containing DMAA to be illegal and was acting to remove them from the market; it describes the agency\'s concern that DMAA can raise blood pressure.',
    isCaution: true, referenceTitle: 'DMAA in Products Marketed as Dietary Supplements (FDA)',
  },
  {
    ingredient: 'ing_bmpea', kind: 'warning_letters', authority: 'U.S. Food and Drug Administration', year: 2015,
    title: 'FDA warning letters to firms marketing products containing BMPEA',
    whatItIs: 'Letters the FDA sent in 2015 to companies marketing products labeled as dietary supplements that listed BMPEA (beta-methylphenethylamine), stating the agency\'s position that BMPEA does not meet the definition of a dietary ingredient. They are correspondence to those firms, not a statement about any product in this Record.',
    isCaution: false, referenceTitle: 'FDA warning letters (2015)',
  },
  {
    ingredient: 'ing_dmha', kind: 'warning_letters', authority: 'U.S. Food and Drug Administration', year: 2019,
    title: 'FDA warning letters to firms marketing products containing DMHA',
    whatItIs: 'Letters the FDA sent in 2019 to companies marketing products labeled as dietary supplements that listed DMHA (2-aminoisoheptane), stating the agency\'s position that DMHA is not a lawful dietary ingredient. They are correspondence to those firms, not a statement about any product in this Record.',
    isCaution: false, referenceTitle: 'FDA warning letters (2019)',
  },
  {
    ingredient: 'ing_phenibut', kind: 'warning_letters', authority: 'U.S. Food and Drug Administration', year: 2019,
    title: 'FDA warning letters to firms marketing products containing phenibut',
    whatItIs: 'Letters the FDA sent in 2019 to companies marketing products labeled as dietary supplements that listed phenibut, stating the agency\'s position that phenibut does not meet the definition of a dietary ingredient. They are correspondence to those firms, not a statement about any product in this Record.',
    isCaution: false, referenceTitle: 'FDA warning letters (2019)',
  },
  {
    ingredient: 'ing_caffeine', kind: 'guidance', authority: 'U.S. Food and Drug Administration', year: 2018,
    title: 'Highly Concentrated Caffeine in Dietary Supplements: Guidance for Industry',
    whatItIs: 'FDA guidance for industry (2018) stating the agency\'s view that dietary supplements containing pure or highly concentrated caffeine in powder or liquid form, sold in bulk to consumers, are generally unlawful because of the risk of dangerous overdose from small measuring errors. It concerns bulk concentrated caffeine, not pre-measured servings, and is not a finding about any product in this Record.',
    isCaution: true, referenceTitle: 'Highly Concentrated Caffeine in Dietary Supplements: Guidance for Industry (FDA, 2018)',
  },
];
