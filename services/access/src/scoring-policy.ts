/**
 * Extraction scoring thresholds and points (docs/extraction-scoring.md).
 * The score decays with a half-life, so ordinary use never accumulates
 * toward a threshold; only a sustained pattern does.
 */
export interface ScoringPolicy {
  /** Past this score, the request that added points is refused and the key cools down. */
  refuse_at: number;
  /** Past this score, the key is suspended until an operator lifts it. */
  suspend_at: number;
  half_life_ms: number;
  cool_down_ms: number;
  /** Distinct not-found ids a key may ask for per UTC day before each further one scores. */
  not_found_allowance: number;
  not_found_points: number;
  /** A not-found id that differs from the previous not-found id in at most this many characters is a probe. */
  pattern_max_differences: number;
  pattern_points: number;
  /** Distinct resolve identifiers / search queries per UTC day before each further one scores. */
  identifier_allowance: number;
  identifier_points: number;
  /** Distinct date windows (feed with until or a backwards since, snapshot from/to) per UTC day before each further one scores. */
  window_allowance: number;
  window_points: number;
  /** Meeting the spent budget on this many of the last `exhaustion_span_days` days scores, once per day. */
  exhaustion_days: number;
  exhaustion_span_days: number;
  exhaustion_points: number;
  state_ttl_ms: number;
}

export const defaultScoringPolicy: ScoringPolicy = {
  refuse_at: 40,
  suspend_at: 120,
  half_life_ms: 6 * 60 * 60 * 1000,
  cool_down_ms: 10 * 60 * 1000,
  not_found_allowance: 5,
  not_found_points: 4,
  pattern_max_differences: 2,
  pattern_points: 6,
  identifier_allowance: 40,
  identifier_points: 2,
  window_allowance: 12,
  window_points: 3,
  exhaustion_days: 3,
  exhaustion_span_days: 7,
  exhaustion_points: 25,
  state_ttl_ms: 8 * 24 * 60 * 60 * 1000,
};
