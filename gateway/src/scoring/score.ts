/**
 * A key's extraction score as one answer left it: what the enforcer acts on.
 * The budget charge and the score are settled together in one Redis round
 * trip (limits/settle.ts), whose Settlement carries this; the scoring side
 * names only the score, so limits/ depends on scoring/ and never the reverse.
 */
export interface ExtractionScore {
  score: number;
  points: number;
  reasons: string[];
  evidence: Record<string, unknown>;
}
