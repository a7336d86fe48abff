/**
 * Research context and regulatory records: the kinds the Record holds and the
 * wording rule every answer keeps (spec: a regulatory filing is never
 * returned as an approval, a warning or a finding of harm). Shared by the
 * curation verbs, which refuse such wording when a curator writes it, and the
 * record service, which never serves it (decisions 0202 and 1601).
 */

/** Regulatory record kinds (open enum), each with what that kind of filing is. */
export const regulatoryKindDescriptions = {
  warning_letter: 'a warning letter: a letter an agency sent to a named firm about its practices or products',
  warning_letters: 'warning letters: letters an agency sent to named firms about their practices or products',
  agency_statement: 'an agency statement: a public statement of an agency\'s position',
  import_alert: 'an import alert: guidance to agency field staff on detaining shipments from named firms or of a named substance',
  consumer_advisory: 'a consumer advisory: public information an agency issued about a substance',
  guidance: 'a guidance document: an agency statement of its current thinking on a topic',
  rule: 'a rule: a regulation an agency adopted',
  notification: 'a notification: a filing a firm submitted to an agency',
  new_dietary_ingredient_notification: 'a new dietary ingredient notification: a filing a firm submitted to an agency',
  gras_notice: 'a GRAS notice: a filing a firm submitted to an agency about a substance',
  recall: 'a recall notice: an announcement that a named firm withdrew named lots',
  prohibited_list: 'a prohibited list: substances an anti-doping authority prohibits in sport',
  fact_sheet: 'a fact sheet: public information an agency published about a substance',
} as const;
export type RegulatoryKind = keyof typeof regulatoryKindDescriptions;
export const regulatoryKinds = Object.keys(regulatoryKindDescriptions) as RegulatoryKind[];

/** Research reference kinds (open enum). */
export const researchKinds = ['position_stand', 'consensus_statement', 'review', 'meta_analysis', 'trial', 'reference_intake', 'fact_sheet', 'monograph'] as const;
export type ResearchKind = (typeof researchKinds)[number];

const harmVerdict =
  /\b(?:is|are|was|were|be|been)\s+(?:not\s+)?(?:safe|unsafe|dangerous|harmful|toxic|hazardous)\b|\bcaus(?:e|es|ed|ing)\s+(?:harm|injur\w*|death|illness)\b|\bsafe\s+(?:to|for)\b/i;
const approvalVerdict = /\b(?:approv\w*|endorse\w*|certif\w*|authori[sz]\w*|cleared|recommend\w*)\b/i;
/** "It is not an approval" denies a verdict rather than stating one. */
const negatedClause = /\b(?:not|never|nor|neither)\b[^.;]*/gi;

/** Text that reads as an approval, a verdict on a product or a finding of harm ("approved", "is safe", "causes harm" …), negated clauses aside. */
export function readsAsVerdict(text: string): boolean {
  return harmVerdict.test(text) || approvalVerdict.test(text.replace(negatedClause, ''));
}
