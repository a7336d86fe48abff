-- Up Migration

-- ---------------------------------------------------------------------------
-- Record versions. Every committed change to a Record table creates exactly
-- one new record version in the same transaction (statement triggers below),
-- and writers are serialised so that version order is commit order: two
-- answers sharing a record_version come from one committed state.
-- ---------------------------------------------------------------------------
CREATE TABLE record_versions (
  id            bigserial PRIMARY KEY,
  version       text GENERATED ALWAYS AS ('rv_' || lpad(id::text, 8, '0')) STORED UNIQUE,
  txid          bigint NOT NULL UNIQUE,
  committed_at  timestamptz NOT NULL DEFAULT now(),
  reason        text NOT NULL DEFAULT 'record change',
  methodology_version text NOT NULL DEFAULT 'method-2026.11'
);

CREATE FUNCTION bump_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One writer at a time: the version id is taken after the lock, so ids follow commit order.
  PERFORM pg_advisory_xact_lock(7300001);
  INSERT INTO record_versions (txid, reason)
  VALUES (txid_current(), coalesce(nullif(current_setting('record.change_reason', true), ''), TG_TABLE_NAME || ' changed'))
  ON CONFLICT (txid) DO NOTHING;
  RETURN NULL;
END $$;

-- ---------------------------------------------------------------------------
-- Catalogue
-- ---------------------------------------------------------------------------
CREATE TABLE brands (
  brand_id   text PRIMARY KEY CHECK (brand_id ~ '^brd_[a-z0-9_]{2,40}$'),
  name       text NOT NULL,
  name_norm  text NOT NULL,
  is_demo    boolean NOT NULL DEFAULT false
);
CREATE INDEX brands_name_norm ON brands (name_norm);

CREATE TABLE products (
  product_id   text PRIMARY KEY CHECK (product_id ~ '^prd_[0-9a-z]{12}$'),
  brand_id     text NOT NULL REFERENCES brands,
  name         text NOT NULL,
  name_norm    text NOT NULL,
  category     text NOT NULL DEFAULT 'pre-workout',
  form         text NOT NULL CHECK (form IN ('powder', 'capsule', 'ready_to_drink')),
  depth_class  text NOT NULL CHECK (depth_class IN ('REGISTERED', 'CAPTURED', 'TRACKED')),
  retired_on   date,
  retired_note text,
  is_demo      boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX products_brand ON products (brand_id);
CREATE INDEX products_name_norm ON products (name_norm);

-- Several products may share one generic alias ("Original").
CREATE TABLE product_aliases (
  alias      text NOT NULL,
  alias_norm text NOT NULL,
  product_id text NOT NULL REFERENCES products,
  PRIMARY KEY (alias_norm, product_id)
);
CREATE INDEX product_aliases_product ON product_aliases (product_id);

CREATE TABLE ingredients (
  ingredient_id text PRIMARY KEY CHECK (ingredient_id ~ '^ing_[a-z0-9_]{2,60}$'),
  name          text NOT NULL,
  kind          text NOT NULL DEFAULT 'ingredient'
);

CREATE TABLE ingredient_synonyms (
  synonym       text NOT NULL,
  synonym_norm  text NOT NULL,
  ingredient_id text NOT NULL REFERENCES ingredients,
  PRIMARY KEY (synonym_norm, ingredient_id)
);

-- ---------------------------------------------------------------------------
-- Sources and captures (preserved-source hash and storage path stay internal)
-- ---------------------------------------------------------------------------
CREATE TABLE sources (
  source_id    bigserial PRIMARY KEY,
  product_id   text NOT NULL REFERENCES products,
  kind         text NOT NULL CHECK (kind IN ('manufacturer', 'retailer')),
  retailer     text,
  url          text NOT NULL,
  health       text NOT NULL DEFAULT 'readable' CHECK (health IN ('readable', 'unreadable')),
  health_since timestamptz NOT NULL DEFAULT now(),
  last_read_at timestamptz
);
CREATE INDEX sources_product ON sources (product_id);

CREATE TABLE captures (
  capture_id     bigserial PRIMARY KEY,
  source_id      bigint NOT NULL REFERENCES sources,
  observed_at    timestamptz NOT NULL,
  content_sha256 text NOT NULL,
  storage_path   text NOT NULL
);
CREATE INDEX captures_source ON captures (source_id, observed_at);
CREATE INDEX captures_observed ON captures (observed_at);

-- ---------------------------------------------------------------------------
-- History states: one captured label state of a product, classified by what it can support.
-- ---------------------------------------------------------------------------
CREATE TABLE history_states (
  state_id               text PRIMARY KEY CHECK (state_id ~ '^hs_[0-9a-z]{12}$'),
  product_id             text NOT NULL REFERENCES products,
  capture_id             bigint REFERENCES captures,
  observed_from          date NOT NULL,
  observed_to            date NOT NULL,
  classification         text NOT NULL CHECK (classification IN ('comparable', 'presence_only', 'identity_only')),
  serving_size           numeric CHECK (serving_size IS NULL OR serving_size > 0),
  serving_unit           text,
  servings_per_container numeric CHECK (servings_per_container IS NULL OR servings_per_container > 0),
  serving_description    text,
  note                   text,
  CHECK (observed_from <= observed_to)
);
CREATE INDEX history_states_product ON history_states (product_id, observed_from);

-- A proprietary blend: only its total is declared; its members carry amount NULL.
CREATE TABLE declared_blends (
  blend_id     bigserial PRIMARY KEY,
  state_id     text NOT NULL REFERENCES history_states,
  name         text NOT NULL,
  total_amount numeric CHECK (total_amount IS NULL OR total_amount > 0),
  total_unit   text
);
CREATE INDEX declared_blends_state ON declared_blends (state_id);

-- amount NULL means "named without an amount"; it is never stored as zero.
CREATE TABLE declared_ingredients (
  state_id      text NOT NULL REFERENCES history_states,
  position      int NOT NULL,
  ingredient_id text REFERENCES ingredients,
  declared_name text NOT NULL,
  amount        numeric CHECK (amount IS NULL OR amount > 0),
  unit          text,
  blend_id      bigint REFERENCES declared_blends,
  PRIMARY KEY (state_id, position),
  CHECK (amount IS NULL OR unit IS NOT NULL)
);
CREATE INDEX declared_ingredients_ingredient ON declared_ingredients (ingredient_id);

-- ---------------------------------------------------------------------------
-- Prices: dated observations with their basis. Only basis 'list' is a list price.
-- ---------------------------------------------------------------------------
CREATE TABLE price_observations (
  observation_id         bigserial PRIMARY KEY,
  product_id             text NOT NULL REFERENCES products,
  source_id              bigint REFERENCES sources,
  retailer               text NOT NULL,
  observed_at            date NOT NULL,
  price_cents            int NOT NULL CHECK (price_cents > 0),
  currency               text NOT NULL DEFAULT 'USD' CHECK (currency = 'USD'),
  price_basis            text NOT NULL CHECK (price_basis IN ('list', 'promotional', 'subscription', 'unspecified')),
  servings_per_container numeric CHECK (servings_per_container IS NULL OR servings_per_container > 0),
  state_id               text REFERENCES history_states
);
CREATE INDEX price_observations_product ON price_observations (product_id, observed_at DESC);
CREATE INDEX price_observations_observed ON price_observations (observed_at);

-- ---------------------------------------------------------------------------
-- Candidates, review and Signals
-- ---------------------------------------------------------------------------
CREATE TABLE candidates (
  candidate_id    bigserial PRIMARY KEY,
  product_id      text NOT NULL REFERENCES products,
  dimension       text NOT NULL,
  before_state_id text REFERENCES history_states,
  after_state_id  text REFERENCES history_states,
  window_start    date NOT NULL,
  window_end      date NOT NULL,
  exact_change_date date,
  summary         text NOT NULL,
  opened_at       timestamptz NOT NULL DEFAULT now(),
  status          text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'approved', 'refused')),
  reviewer        text,
  review_note     text,
  reviewed_at     timestamptz,
  CHECK (window_start <= window_end),
  CHECK (status = 'open' OR (reviewer IS NOT NULL AND reviewed_at IS NOT NULL))
);
CREATE INDEX candidates_product ON candidates (product_id);

-- A release batch publishes approved Signals under one release date. A date,
-- once published, never receives another Signal, and dates only move forward,
-- so a poller passing the newest released_at as `since` gets each Signal once.
CREATE TABLE release_batches (
  batch_id      bigserial PRIMARY KEY,
  release_date  date NOT NULL UNIQUE,
  released_at   timestamptz NOT NULL DEFAULT now(),
  released_by   text NOT NULL
);

CREATE FUNCTION release_batches_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'a release batch is permanent' USING ERRCODE = 'check_violation';
  END IF;
  IF EXISTS (SELECT 1 FROM release_batches WHERE release_date >= NEW.release_date AND batch_id <> NEW.batch_id) THEN
    RAISE EXCEPTION 'release date % is not after the newest published release date', NEW.release_date USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER release_batches_forward_only BEFORE INSERT OR UPDATE OR DELETE ON release_batches
  FOR EACH ROW EXECUTE FUNCTION release_batches_forward_only();

CREATE TABLE signals (
  signal_id         text PRIMARY KEY CHECK (signal_id ~ '^sig_[0-9a-z]{12}$'),
  candidate_id      bigint NOT NULL UNIQUE REFERENCES candidates,
  product_id        text NOT NULL REFERENCES products,
  dimension         text NOT NULL,
  before_state_id   text REFERENCES history_states,
  after_state_id    text REFERENCES history_states,
  window_start      date NOT NULL,
  window_end        date NOT NULL,
  exact_change_date date,
  summary           text NOT NULL,
  batch_id          bigint REFERENCES release_batches,
  released_on       date,
  status            text NOT NULL DEFAULT 'released' CHECK (status IN ('released', 'corrected', 'withdrawn')),
  CHECK ((batch_id IS NULL) = (released_on IS NULL)),
  CHECK (exact_change_date IS NULL OR exact_change_date BETWEEN window_start AND window_end)
);
CREATE INDEX signals_feed ON signals (released_on DESC, signal_id DESC) WHERE released_on IS NOT NULL;
CREATE INDEX signals_product ON signals (product_id, released_on DESC);

-- Only an approved candidate becomes a Signal; release date and address never move.
CREATE FUNCTION signals_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'a Signal is permanent; withdraw it instead' USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'INSERT' AND NOT EXISTS (SELECT 1 FROM candidates WHERE candidate_id = NEW.candidate_id AND status = 'approved') THEN
    RAISE EXCEPTION 'only an approved candidate becomes a Signal' USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF OLD.signal_id <> NEW.signal_id OR OLD.product_id <> NEW.product_id THEN
      RAISE EXCEPTION 'a Signal keeps its id and product' USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.released_on IS NOT NULL AND (NEW.released_on IS DISTINCT FROM OLD.released_on OR NEW.batch_id IS DISTINCT FROM OLD.batch_id) THEN
      RAISE EXCEPTION 'a released Signal keeps its release date' USING ERRCODE = 'check_violation';
    END IF;
    IF OLD.released_on IS NULL AND NEW.released_on IS NOT NULL
       AND EXISTS (SELECT 1 FROM release_batches WHERE release_date > NEW.released_on) THEN
      RAISE EXCEPTION 'cannot release into a date older than the newest published release date' USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER signals_guard BEFORE INSERT OR UPDATE OR DELETE ON signals
  FOR EACH ROW EXECUTE FUNCTION signals_guard();

CREATE TABLE signal_corrections (
  correction_id bigserial PRIMARY KEY,
  signal_id     text NOT NULL REFERENCES signals,
  kind          text NOT NULL CHECK (kind IN ('correction', 'withdrawal')),
  recorded_on   date NOT NULL,
  public_note   text NOT NULL,
  operator_note text,
  recorded_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signal_corrections_signal ON signal_corrections (signal_id);

-- ---------------------------------------------------------------------------
-- Research context and regulatory records, per ingredient
-- ---------------------------------------------------------------------------
CREATE TABLE research_context (
  research_id     bigserial PRIMARY KEY,
  ingredient_id   text NOT NULL REFERENCES ingredients,
  range_low       numeric,
  range_high      numeric,
  range_unit      text,
  range_basis     text,
  population      text,
  evidence        text NOT NULL,
  reference_title text NOT NULL,
  reference_year  int,
  reference_kind  text NOT NULL,
  reference_url   text
);
CREATE INDEX research_context_ingredient ON research_context (ingredient_id);

CREATE TABLE regulatory_records (
  regulatory_id   bigserial PRIMARY KEY,
  ingredient_id   text NOT NULL REFERENCES ingredients,
  record_kind     text NOT NULL,
  authority       text NOT NULL,
  year            int,
  title           text NOT NULL,
  what_it_is      text NOT NULL,
  is_caution      boolean NOT NULL DEFAULT false,
  reference_title text,
  reference_url   text
);
CREATE INDEX regulatory_records_ingredient ON regulatory_records (ingredient_id);

-- ---------------------------------------------------------------------------
-- Ledger editions. A closed edition never changes, enforced here.
-- ---------------------------------------------------------------------------
CREATE TABLE ledger_editions (
  edition_id     text PRIMARY KEY CHECK (edition_id ~ '^ed_\d{4}_(0[1-9]|1[0-2])$'),
  period         text NOT NULL UNIQUE CHECK (period ~ '^\d{4}-(0[1-9]|1[0-2])$'),
  status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  data_as_of     date,
  opened_at      timestamptz NOT NULL DEFAULT now(),
  closed_at      timestamptz,
  document       jsonb,
  edition_hash   text,
  count_released int NOT NULL DEFAULT 0,
  CHECK (status = 'open' OR (document IS NOT NULL AND edition_hash IS NOT NULL AND closed_at IS NOT NULL AND data_as_of IS NOT NULL))
);

CREATE FUNCTION ledger_editions_closed_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status = 'closed' THEN
    RAISE EXCEPTION 'ledger edition % is closed and never changes', OLD.edition_id USING ERRCODE = 'check_violation';
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER ledger_editions_closed_guard BEFORE UPDATE OR DELETE ON ledger_editions
  FOR EACH ROW EXECUTE FUNCTION ledger_editions_closed_guard();

-- ---------------------------------------------------------------------------
-- Monitoring: checks of manufacturer/retailer sources, and the spans the
-- monitoring ledger reaches (a period outside them is "partly covered").
-- ---------------------------------------------------------------------------
CREATE TABLE monitoring_spans (
  span_id    bigserial PRIMARY KEY,
  product_id text NOT NULL REFERENCES products,
  started_on date NOT NULL,
  ended_on   date,
  CHECK (ended_on IS NULL OR started_on <= ended_on)
);
CREATE INDEX monitoring_spans_product ON monitoring_spans (product_id);

CREATE TABLE monitoring_checks (
  check_id   bigserial PRIMARY KEY,
  product_id text NOT NULL REFERENCES products,
  source_id  bigint REFERENCES sources,
  checked_at timestamptz NOT NULL,
  outcome    text NOT NULL CHECK (outcome IN ('valid', 'empty', 'unreadable')),
  recovered  boolean NOT NULL DEFAULT false
);
CREATE INDEX monitoring_checks_product ON monitoring_checks (product_id, checked_at);

-- Every Record table bumps the record version once per committing transaction.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['brands','products','product_aliases','ingredients','ingredient_synonyms','sources','captures',
    'history_states','declared_blends','declared_ingredients','price_observations','candidates','release_batches','signals',
    'signal_corrections','research_context','regulatory_records','ledger_editions','monitoring_spans','monitoring_checks']
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH STATEMENT EXECUTE FUNCTION bump_record_version()',
      t || '_bumps_record_version', t);
  END LOOP;
END $$;

-- ---------------------------------------------------------------------------
-- Customers: plans, organisations, accounts, keys, watches (not the Record:
-- no record version).
-- ---------------------------------------------------------------------------
CREATE TABLE plans (
  plan_id            text PRIMARY KEY,
  name               text NOT NULL,
  rate_per_minute    int NOT NULL CHECK (rate_per_minute > 0),
  rate_per_hour      int NOT NULL CHECK (rate_per_hour > 0),
  rate_per_day       int NOT NULL CHECK (rate_per_day > 0),
  budget_products    int NOT NULL CHECK (budget_products >= 0),
  budget_signals     int NOT NULL CHECK (budget_signals >= 0),
  budget_ingredients int NOT NULL CHECK (budget_ingredients >= 0),
  watch_limit        int NOT NULL CHECK (watch_limit >= 0),
  capabilities       text[] NOT NULL,
  self_service       boolean NOT NULL,
  description        text NOT NULL
);

CREATE TABLE organizations (
  org_id           text PRIMARY KEY,
  name             text NOT NULL,
  plan_id          text NOT NULL REFERENCES plans,
  suspended_at     timestamptz,
  suspended_reason text,
  created_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  account_id text PRIMARY KEY,
  org_id     text NOT NULL REFERENCES organizations,
  email      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX accounts_org ON accounts (org_id);

CREATE TABLE api_keys (
  key_id           text PRIMARY KEY CHECK (key_id ~ '^[0-9a-z]{16}$'),
  org_id           text NOT NULL REFERENCES organizations,
  environment      text NOT NULL CHECK (environment IN ('live', 'test')),
  secret_sha256    text NOT NULL CHECK (secret_sha256 ~ '^[0-9a-f]{64}$'),
  scopes           text[] NOT NULL,
  name             text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz,
  revoked_at       timestamptz,
  suspended_at     timestamptz,
  suspended_reason text,
  rotated_to       text REFERENCES api_keys
);
CREATE INDEX api_keys_org ON api_keys (org_id);

CREATE TABLE watches (
  account_id text NOT NULL REFERENCES accounts,
  product_id text NOT NULL REFERENCES products,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, product_id)
);
CREATE INDEX watches_product ON watches (product_id);

-- One alert per (Signal, account); its id is stable so delivery is exactly once.
CREATE TABLE alerts (
  alert_id      text PRIMARY KEY,
  signal_id     text NOT NULL REFERENCES signals,
  account_id    text NOT NULL REFERENCES accounts,
  product_id    text NOT NULL REFERENCES products,
  email         text NOT NULL,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'cancelled', 'dead')),
  attempts      int NOT NULL DEFAULT 0,
  last_error    text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  claimed_at    timestamptz,
  sent_at       timestamptz,
  smtp_message_id text,
  UNIQUE (signal_id, account_id)
);
CREATE INDEX alerts_status ON alerts (status) WHERE status IN ('pending', 'sending', 'dead');

-- Transactional outbox: events written with the change, published to JetStream after.
CREATE TABLE event_outbox (
  event_id     text PRIMARY KEY,
  subject_kind text NOT NULL,
  payload      jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  published_at timestamptz,
  attempts     int NOT NULL DEFAULT 0,
  last_error   text
);
CREATE INDEX event_outbox_unpublished ON event_outbox (created_at) WHERE published_at IS NULL;

CREATE TABLE usage_log (
  usage_id         bigserial PRIMARY KEY,
  at               timestamptz NOT NULL,
  request_id       text NOT NULL,
  key_id           text,
  org_id           text,
  capability       text NOT NULL,
  origin           text,
  http_status      int NOT NULL,
  error_code       text,
  entities_charged int NOT NULL DEFAULT 0,
  latency_ms       numeric NOT NULL
);
CREATE INDEX usage_log_org_at ON usage_log (org_id, at);

-- Operator-visible record of extraction scoring decisions.
CREATE TABLE key_events (
  event_id   bigserial PRIMARY KEY,
  key_id     text NOT NULL,
  at         timestamptz NOT NULL DEFAULT now(),
  kind       text NOT NULL,
  detail     jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX key_events_key ON key_events (key_id, at);

-- Plans. `free` is exactly the spec's free plan. `pro` is the paid plan that
-- entitles ledger and watch. `demo` is for local exploration and load tests.
INSERT INTO plans VALUES
 ('free', 'Free', 30, 500, 2000, 15, 15, 25, 0,
  ARRAY['search_record','resolve_product','get_product_record','get_formula_history','explain_signal','list_signal_changes','compare_products','get_serving_economics','get_research_context','get_regulatory_context','get_category_snapshot','get_record_version'],
  true, 'Self-service: 30/min, 500/h, 2000/day; 15 products, 15 Signals, 25 ingredients per UTC day. No ledger, no watchlist.'),
 ('pro', 'Professional', 120, 5000, 50000, 300, 300, 500, 50,
  ARRAY['search_record','resolve_product','get_product_record','get_formula_history','explain_signal','list_signal_changes','compare_products','get_serving_economics','get_research_context','get_regulatory_context','get_category_snapshot','get_record_version','list_ledger_editions','get_ledger_edition','list_watched_products','watch_product','unwatch_product','get_watch_receipt'],
  false, 'Paid, against a named account: 120/min, 5000/h, 50000/day; 300 products, 300 Signals, 500 ingredients per UTC day; up to 50 watched products.'),
 ('demo', 'Local demo', 1000000, 10000000, 100000000, 1000000, 1000000, 1000000, 200,
  ARRAY['search_record','resolve_product','get_product_record','get_formula_history','explain_signal','list_signal_changes','compare_products','get_serving_economics','get_research_context','get_regulatory_context','get_category_snapshot','get_record_version','list_ledger_editions','get_ledger_edition','list_watched_products','watch_product','unwatch_product','get_watch_receipt'],
  false, 'Local stack only: windows and budgets high enough for exploration and load tests; up to 200 watched products.');

-- The empty Record is version 1.
INSERT INTO record_versions (txid, reason) VALUES (txid_current(), 'empty Record');

-- Down Migration
DROP SCHEMA public CASCADE;
CREATE SCHEMA public;
