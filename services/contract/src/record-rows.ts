/**
 * The Record's row types and the product-identity presenter are in
 * @evidence-record/record-store, beside the queries that read them. What
 * stays here is a shape of wording, not of storage.
 */

/**
 * What a change is about, as a person is shown it: the product by id and
 * name, the dimension, the one-line summary and the observation window. A
 * candidate in the review queue and a released Signal in an alert email say
 * it alike.
 */
export interface ChangeHeading {
  product_id: string;
  product_name: string;
  brand_name: string;
  dimension: string;
  summary: string;
  window_start: string;
  window_end: string;
}
