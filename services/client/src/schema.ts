// Generated from the contract (services/contract) by services/client/scripts/generate.ts with openapi-typescript.
// Do not edit: a test fails when this file differs from a fresh generation.
export interface paths {
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Health: 200 while the service is serving
         * @description No key. Says nothing about source readability: source health is data inside answers, never an outage.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document
         * @description World-readable, no key.
         */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/record/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * search record
         * @description Answer a free-text question with a small ranked set of matching products and what matched (name, alias or declared ingredient). Never a listing.
         *
         *     Scope `record:search`. Budget cost on success: one product per distinct product named. MCP tool `record.search` (earlier name `service_search_record` still works).
         */
        post: operations["search_record"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * resolve product
         * @description Resolve a brand, product name or alias to one canonical product_id. Never guesses: a generic name answers ambiguous with candidates, an uncovered one unsupported.
         *
         *     Scope `products:read`. Budget cost on success: one product per distinct product named. MCP tool `products.resolve` (earlier name `service_resolve_product` still works).
         */
        post: operations["resolve_product"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{product_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * get product record
         * @description The product record: identity, serving configuration, declared ingredients, captured prices and freshness, with dates and limitations.
         *
         *     Scope `products:read`. Budget cost on success: one product per distinct product named. MCP tool `products.get` (earlier name `service_get_product_record` still works).
         */
        get: operations["get_product_record"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{product_id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * get formula history
         * @description The timeline of captured label states, the depth of recoverable history, which states are comparable, and the approved Signals between them.
         *
         *     Scope `history:read`. Budget cost on success: one product per distinct product named. MCP tool `products.history` (earlier name `service_get_formula_history` still works).
         */
        get: operations["get_formula_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/signals/{signal_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * explain signal
         * @description One confirmed change: before and after state, observation window, evidence, release date and permanent address.
         *
         *     Scope `signals:read`. Budget cost on success: one signal per distinct signal named. MCP tool `signals.explain` (earlier name `service_explain_signal` still works).
         */
        get: operations["explain_signal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/signals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * list signal changes
         * @description Approved Signals newest release first. Poll with since = the newest review.released_at you processed; follow next_cursor until null.
         *
         *     Scope `signals:read`. Budget cost on success: one signal per distinct signal named. MCP tool `signals.list` (earlier name `service_list_signal_changes` still works).
         */
        get: operations["list_signal_changes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * compare products
         * @description Declared doses of 2 or 3 products side by side, with price per serving as a calculation. Never names a winner; refuses REGISTERED-depth products.
         *
         *     Scope `comparisons:create`. Budget cost on success: one product per distinct product named. MCP tool `products.compare` (earlier name `service_compare_products` still works).
         */
        post: operations["compare_products"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{product_id}/serving-economics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * get serving economics
         * @description Price per serving (and per gram of declared ingredients where meaningful) as calculations with operands, list and promotional kept apart.
         *
         *     Scope `economics:read`. Budget cost on success: one product per distinct product named. MCP tool `products.serving_economics` (earlier name `service_get_serving_economics` still works).
         */
        get: operations["get_serving_economics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/research/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * get research context
         * @description Studied ranges and the published evidence behind them for up to 5 ingredients, or for the ingredients a product declares.
         *
         *     Scope `research:read`. Budget cost on success: one ingredient per distinct ingredient named. MCP tool `ingredients.research` (earlier name `service_get_research_context` still works).
         */
        post: operations["get_research_context"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/regulatory/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * get regulatory context
         * @description Regulatory records and documented cautions for up to 5 ingredients, or for the ingredients a product declares. A filing is never an approval or a finding of harm.
         *
         *     Scope `regulatory:read`. Budget cost on success: one ingredient per distinct ingredient named. MCP tool `ingredients.regulatory` (earlier name `service_get_regulatory_context` still works).
         */
        post: operations["get_regulatory_context"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/category/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * get category snapshot
         * @description A summary of approved Signals and coverage for one capped date window, paged with cursor; every proportion names its denominator.
         *
         *     Scope `category:read`. Budget cost on success: one signal per distinct signal named. MCP tool `signals.snapshot` (earlier name `service_get_category_snapshot` still works).
         */
        get: operations["get_category_snapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ledger": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * list ledger editions
         * @description The ledger editions: period, status, data-as-of date and count released. Safe to cache: a closed edition never changes.
         *
         *     Scope `ledger:read`. Budget cost on success: one signal per distinct signal named. MCP tool `ledger.list` (earlier name `service_list_ledger_editions` still works).
         */
        get: operations["list_ledger_editions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ledger/{edition_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * get ledger edition
         * @description One ledger edition: summary, confirmed changes released in the period, category benchmarks with cohorts, serving economics, comparison, limitations and edition_hash.
         *
         *     Scope `ledger:read`. Budget cost on success: one signal per distinct signal named. MCP tool `ledger.get` (earlier name `service_get_ledger_edition` still works).
         */
        get: operations["get_ledger_edition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/watch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * list watched products
         * @description The products on the key's account watchlist with monitoring state, last read, next check due and whether the source is unreadable.
         *
         *     Scope `watch:manage`. Budget cost on success: one product per distinct product named. MCP tool `watchlist.list` (earlier name `service_list_watched_products` still works).
         */
        get: operations["list_watched_products"];
        put?: never;
        /**
         * watch product
         * @description Add a covered product to the account's watchlist (idempotent). Alerts arrive by email when Signals on it are released.
         *
         *     Scope `watch:manage`. Budget cost on success: one product per distinct product named. MCP tool `watchlist.add` (earlier name `service_watch_product` still works).
         */
        post: operations["watch_product"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/watch/{product_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * unwatch product
         * @description Remove a product from the watchlist (idempotent). Stops future alerts; removes nothing already delivered.
         *
         *     Scope `watch:manage`. Budget cost on success: one product per distinct product named. MCP tool `watchlist.remove` (earlier name `service_unwatch_product` still works).
         */
        delete: operations["unwatch_product"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/watch/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * get watch receipt
         * @description Monitoring receipt for a month (YYYY-MM, default current): valid checks, empty attempts, recoveries and confirmed Signals per watched product.
         *
         *     Scope `watch:manage`. Budget cost on success: one product per distinct product named. MCP tool `watchlist.receipt` (earlier name `service_get_watch_receipt` still works).
         */
        get: operations["get_watch_receipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/record/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * get record version
         * @description Record version, methodology version, supported category, coverage counts and source freshness. Spends no budget.
         *
         *     Scope `framework:read`. Budget cost on success: nothing. MCP tool `record.version` (earlier name `service_get_record_version` still works).
         */
        get: operations["get_record_version"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AnswerEnvelope: {
            request_id: string;
            capability: string;
            /** @enum {string} */
            status: "supported" | "partial" | "stale" | "under_review" | "ambiguous" | "unsupported" | "refused";
            product?: components["schemas"]["ProductIdentity"];
            products?: components["schemas"]["ProductIdentity"][];
            candidates?: components["schemas"]["ProductIdentity"][];
            summary: string;
            history?: components["schemas"]["HistoryState"][];
            signals?: components["schemas"]["Signal"][];
            comparison?: components["schemas"]["Comparison"];
            coverage?: components["schemas"]["Coverage"];
            ledger?: components["schemas"]["Ledger"];
            watch?: components["schemas"]["Watch"];
            next_cursor?: string | null;
            verified_facts: components["schemas"]["VerifiedFact"][];
            commercial_facts: components["schemas"]["CommercialFact"][];
            calculations: components["schemas"]["Calculation"][];
            research_context: components["schemas"]["ResearchContext"][];
            regulatory_records: components["schemas"]["RegulatoryRecord"][];
            documented_cautions: components["schemas"]["RegulatoryRecord"][];
            limitations: string[];
            source_references: components["schemas"]["SourceReference"][];
            confidence: components["schemas"]["Confidence"];
            /** @description Record data-state id: two answers sharing it came from one committed state. Cache on your side keyed on it. */
            record_version: string;
            /**
             * Format: date
             * @description The UTC date of the committed Record state the answer was read from (the day that state was committed).
             */
            record_as_of: string;
            /**
             * Format: date-time
             * @description The newest dated observation the Record holds in that state (capture, price or monitoring check); not the current time.
             */
            record_timestamp: string;
            /** @description The method the answer was produced under; get_record_version reports it. */
            methodology_version: string;
            disclaimer: string;
        };
        ProductIdentity: {
            product_id: string;
            name: string;
            brand_id: string;
            brand_name: string;
            category: string;
            /** @description powder, capsule, ready_to_drink */
            form: string;
            /** @enum {string} */
            depth_class: "REGISTERED" | "CAPTURED" | "TRACKED";
            retired: boolean;
            /** Format: date */
            retired_on: string | null;
        } | null;
        HistoryState: {
            state_id: string;
            /** Format: date */
            observed_from: string;
            /** Format: date */
            observed_to: string;
            /** @enum {string} */
            classification: "comparable" | "presence_only" | "identity_only";
            /** @description true when this state can be compared with another comparable state of the same product */
            comparable: boolean;
            serving: components["schemas"]["ServingConfiguration"];
            declared_ingredient_count: number;
            note: string | null;
        };
        ServingConfiguration: {
            serving_size: number | null;
            serving_unit: string | null;
            servings_per_container: number | null;
            description: string | null;
        } | null;
        Signal: {
            signal_id: string;
            product: {
                product_id: string;
                name: string;
                brand_id: string;
                brand_name: string;
            };
            dimension: string;
            category: string;
            summary: string;
            /** @enum {string} */
            status: "released" | "corrected" | "withdrawn";
            observation_window: components["schemas"]["ObservationWindow"];
            review: {
                /** Format: date */
                released_at: string;
                /** @enum {boolean} */
                reviewed: true;
            };
            signal_url: string;
            before?: components["schemas"]["SignalSide"];
            after?: components["schemas"]["SignalSide"];
            evidence?: components["schemas"]["SourceReference"][];
            corrections: components["schemas"]["SignalCorrection"][];
        };
        ObservationWindow: {
            /** Format: date */
            start: string;
            /** Format: date */
            end: string;
            /** Format: date */
            exact_change_date: string | null;
        };
        SignalSide: {
            /** @description the history state on this side; null for a price Signal recorded without one */
            state_id: string | null;
            /** @description explain_signal: the history state itself */
            state?: {
                state_id: string;
                /** Format: date */
                observed_from: string;
                /** Format: date */
                observed_to: string;
                /** @enum {string} */
                classification: "comparable" | "presence_only" | "identity_only";
                /** @description true when this state can be compared with another comparable state of the same product */
                comparable: boolean;
                serving: components["schemas"]["ServingConfiguration"];
                declared_ingredient_count: number;
                note: string | null;
            } | null;
            /** @description explain_signal: declared ingredients on this side that differ from the other side */
            declared_ingredients?: components["schemas"]["VerifiedFact"][];
            /** @description explain_signal, price Signals: the list-price observations compared */
            list_prices?: components["schemas"]["CommercialFact"][];
        } | null;
        VerifiedFact: {
            /** @description declared_ingredient, proprietary_blend, serving_configuration */
            kind: string;
            value: {
                declared_name: string;
                /** @description null: the label names it without an amount. Never zero for undisclosed. */
                amount: number | null;
                unit: string | null;
                ingredient_id?: string | null;
                /** @description name of the proprietary blend this ingredient is declared in */
                blend?: string | null;
                amount_disclosed?: boolean;
            };
            state_id: string | null;
            /** Format: date */
            observed_at: string;
            source_url: string | null;
        };
        CommercialFact: {
            /** @description price_observation */
            kind: string;
            product_id: string;
            /** Format: date */
            observed_at: string;
            retailer: string;
            price: {
                amount: number;
                /** @enum {string} */
                currency: "USD";
            };
            /**
             * @description list only when the Record recorded the price as a list price
             * @enum {string}
             */
            price_basis: "list" | "promotional" | "subscription" | "unspecified";
            servings_per_container: number | null;
            source_url: string | null;
        };
        SourceReference: {
            url: string;
            /** Format: date */
            observed_at: string;
            /** @description manufacturer, retailer, regulator, publication */
            kind: string;
            readable: boolean | null;
        };
        SignalCorrection: {
            /** @enum {string} */
            kind: "correction" | "withdrawal";
            /** Format: date */
            recorded_on: string;
            note: string;
            /** @description the summary as it read before this correction (for the first correction: as released and emailed); null when the correction kept the summary */
            summary_before?: string | null;
            /** @description the summary this correction put in place; null when the correction kept the summary */
            summary_after?: string | null;
        };
        /** @description compare_products: declared doses side by side in the labels' own units. Never names a winner; absent when the comparison is refused */
        Comparison: {
            basis: string;
            states: ({
                product_id: string;
                state_id: string | null;
                /** Format: date */
                observed_from: string | null;
                /** Format: date */
                observed_to: string | null;
                /** @enum {string|null} */
                classification: "comparable" | "presence_only" | "identity_only" | null;
            } & {
                [key: string]: unknown;
            })[];
            serving: ({
                product_id: string;
                serving_size: number | null;
                serving_unit: string | null;
                servings_per_container: number | null;
                description: string | null;
            } & {
                [key: string]: unknown;
            })[];
            /** @description one row per ingredient any product declares, in label order; there is no ranking */
            ingredients: ({
                /** @description null when the Record has not mapped the declared name to an ingredient */
                ingredient_id: string | null;
                name: string;
                /** @description one cell per product, in request order */
                declared: ({
                    product_id: string;
                    /** @description false: not on the label as captured (undisclosed), never zero */
                    declared: boolean;
                    declared_name: string | null;
                    /** @description null: no amount of its own on the label; never treated as zero */
                    amount: number | null;
                    unit: string | null;
                    blend: string | null;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            blends: ({
                product_id: string | null;
                name: string;
                total_amount: number | null;
                total_unit: string | null;
            } & {
                [key: string]: unknown;
            })[];
            note: string;
        } & {
            [key: string]: unknown;
        };
        /** @description What the answer covers; its shape depends on the capability (see each operation). */
        Coverage: components["schemas"]["SearchCoverage"] | components["schemas"]["ResolveCoverage"] | components["schemas"]["ProductRecordCoverage"] | components["schemas"]["HistoryCoverage"] | components["schemas"]["ServingEconomicsCoverage"] | components["schemas"]["ResearchCoverage"] | components["schemas"]["RegulatoryCoverage"] | components["schemas"]["CategorySnapshotCoverage"] | components["schemas"]["WatchReceiptCoverage"] | components["schemas"]["RecordVersionCoverage"];
        /** @description search_record: what the question was matched as and what matched in each product */
        SearchCoverage: {
            query_normalized: string;
            /** @description search_record answers with at most this many products and never pages */
            result_cap: number;
            results: ({
                rank: number;
                product_id: string;
                score: number;
                matched: ({
                    /** @description name, alias, brand or declared_ingredient (open enum) */
                    field: string;
                    value: string;
                    ingredient_id?: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            /** @description true when more products match than the cap shows */
            more_matches: boolean;
            ingredients_recognised: ({
                ingredient_id: string;
                name: string;
                matched: string;
                /** @description name (a whole name or synonym) or word (one distinctive word) */
                by: string;
            } & {
                [key: string]: unknown;
            })[];
        } & {
            [key: string]: unknown;
        };
        /** @description resolve_product: how the identifier was matched, or how many candidates it names */
        ResolveCoverage: {
            identifier_normalized: string;
            /** @description one match: name, alias, brand_and_name or brand_and_alias (open enum) */
            matched_on?: string;
            matched_value?: string;
            /** @description ambiguous: how many products carry the identifier */
            candidates_total?: number;
            /** @description ambiguous: how many of them are in candidates */
            candidates_shown?: number;
        } & {
            [key: string]: unknown;
        };
        /** @description get_product_record: the latest label state, freshness and source health */
        ProductRecordCoverage: {
            latest_state: ({
                state_id: string;
                /** Format: date */
                observed_from: string;
                /** Format: date */
                observed_to: string;
                /** @enum {string} */
                classification: "comparable" | "presence_only" | "identity_only";
            } & {
                [key: string]: unknown;
            }) | null;
            freshness: {
                /** Format: date */
                label_observed_to: string | null;
                /** Format: date */
                newest_price_observed_at: string | null;
            } & {
                [key: string]: unknown;
            };
            /** @description data-level state of each source; an unreadable source is never an API outage */
            source_health: ({
                /** @description manufacturer or retailer */
                kind: string;
                retailer: string | null;
                readable: boolean;
                /**
                 * Format: date
                 * @description the day the source entered its current health
                 */
                since: string;
                /** Format: date */
                last_read_on: string | null;
                /** Format: date */
                last_captured_on: string | null;
            } & {
                [key: string]: unknown;
            })[];
        } & {
            [key: string]: unknown;
        };
        /** @description get_formula_history: how deep the recoverable history goes */
        HistoryCoverage: {
            /** @enum {string} */
            depth_class: "REGISTERED" | "CAPTURED" | "TRACKED";
            depth_of_history: {
                /** @description none, identity_only, presence_only, single_comparable_state or comparable_timeline (open enum) */
                class: string;
                span_days: number;
            } & {
                [key: string]: unknown;
            };
            /** Format: date */
            first_observed: string | null;
            /** Format: date */
            last_observed: string | null;
            states: number;
            comparable_states: number;
            comparable_pairs: number;
            released_signals: number;
            withdrawn_signals: number;
        } & {
            [key: string]: unknown;
        };
        /** @description get_serving_economics: the price observations behind the calculations */
        ServingEconomicsCoverage: {
            observations: number;
            /** Format: date */
            first_observed_at: string | null;
            /** Format: date */
            last_observed_at: string | null;
            price_bases_observed: ("list" | "promotional" | "subscription" | "unspecified")[];
            /** @description spans of dated observations at one price per retailer and basis; never a change date */
            price_runs: ({
                retailer: string;
                /** @enum {string} */
                price_basis: "list" | "promotional" | "subscription" | "unspecified";
                /** @description USD */
                price: number;
                /** Format: date */
                first_observed_at: string;
                /** Format: date */
                last_observed_at: string;
                observations: number;
            } & {
                [key: string]: unknown;
            })[];
            per_gram_basis: ({
                /** @enum {string|null} */
                price_basis: "list" | "promotional" | "subscription" | "unspecified" | null;
                /** Format: date */
                as_of: string;
            } & {
                [key: string]: unknown;
            }) | null;
        } & {
            [key: string]: unknown;
        };
        /** @description get_research_context: the ingredients answered */
        ResearchCoverage: {
            ingredients: ({
                ingredient_id: string;
                name: string;
                research_entries: number;
            } & {
                [key: string]: unknown;
            })[];
            /** @description when asked by product_id: the label state whose declared ingredients were read */
            from_product_label: ({
                product_id: string;
                state_id: string | null;
            } & {
                [key: string]: unknown;
            }) | null;
        } & {
            [key: string]: unknown;
        };
        /** @description get_regulatory_context: the ingredients answered */
        RegulatoryCoverage: {
            ingredients: ({
                ingredient_id: string;
                name: string;
                regulatory_records: number;
                documented_cautions: number;
            } & {
                [key: string]: unknown;
            })[];
            /** @description when asked by product_id: the label state whose declared ingredients were read */
            from_product_label: ({
                product_id: string;
                state_id: string | null;
            } & {
                [key: string]: unknown;
            }) | null;
        } & {
            [key: string]: unknown;
        };
        /** @description get_category_snapshot: Signals released in the window and coverage state; every proportion names its cohort */
        CategorySnapshotCoverage: {
            category: string;
            /** @description release dates, both ends inclusive */
            window: {
                /** Format: date */
                from: string;
                /** Format: date */
                to: string;
                days: number;
                max_days: number;
            } & {
                [key: string]: unknown;
            };
            signals: {
                released_in_window: number;
                by_dimension: ({
                    dimension: string;
                    /** @description numerator / denominator rounded to 4 places; null when the denominator is 0 */
                    share: number | null;
                    numerator: number;
                    denominator: number;
                    /** @description what the denominator counts */
                    cohort: string;
                } & {
                    [key: string]: unknown;
                })[];
                by_status: ({
                    /** @description released, corrected or withdrawn */
                    status: string;
                    /** @description numerator / denominator rounded to 4 places; null when the denominator is 0 */
                    share: number | null;
                    numerator: number;
                    denominator: number;
                    /** @description what the denominator counts */
                    cohort: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
            products: {
                covered: number;
                by_depth_class: ({
                    depth_class: string;
                    /** @description numerator / denominator rounded to 4 places; null when the denominator is 0 */
                    share: number | null;
                    numerator: number;
                    denominator: number;
                    /** @description what the denominator counts */
                    cohort: string;
                } & {
                    [key: string]: unknown;
                })[];
                with_signals_in_window: components["schemas"]["Proportion"];
            } & {
                [key: string]: unknown;
            };
            sources: {
                total: number;
                unreadable: components["schemas"]["Proportion"];
                by_kind: ({
                    kind: string;
                    total: number;
                    unreadable: components["schemas"]["Proportion"];
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        Proportion: {
            /** @description numerator / denominator rounded to 4 places; null when the denominator is 0 */
            share: number | null;
            numerator: number;
            denominator: number;
            /** @description what the denominator counts */
            cohort: string;
        } & {
            [key: string]: unknown;
        };
        /** @description get_watch_receipt: how many watched products the monitoring ledger reaches for the period */
        WatchReceiptCoverage: {
            /** @description YYYY-MM */
            period: string;
            products_total: number;
            products_covered: number;
            products_partly_covered: number;
        } & {
            [key: string]: unknown;
        };
        /** @description get_record_version: coverage counts and source freshness of this record version */
        RecordVersionCoverage: {
            record_version: string;
            methodology_version: string;
            supported_category: string;
            counts: {
                brands: number;
                products: number;
                /** @description keyed by depth class */
                products_by_depth_class: {
                    [key: string]: number;
                };
                retired_products: number;
                released_signals: number;
                withdrawn_signals: number;
                corrected_signals: number;
                ingredients: number;
                history_states: number;
            } & {
                [key: string]: unknown;
            };
            source_freshness: {
                /** Format: date */
                newest_observation_on: string | null;
                /** Format: date */
                newest_label_capture_on: string | null;
                /** Format: date */
                newest_price_observed_at: string | null;
                /** Format: date */
                newest_monitoring_check_on: string | null;
                sources: number;
                unreadable_sources: number;
                unreadable_manufacturer_sources: number;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description list_ledger_editions and get_ledger_edition */
        Ledger: components["schemas"]["LedgerEditionList"] | components["schemas"]["LedgerEdition"];
        /** @description list_ledger_editions */
        LedgerEditionList: {
            /** @description newest period first */
            editions: components["schemas"]["LedgerEditionEntry"][];
        } & {
            [key: string]: unknown;
        };
        LedgerEditionEntry: {
            edition_id: string;
            /** @description YYYY-MM */
            period: string;
            /** @description open or closed (a closed edition never changes) */
            status: string;
            /** Format: date */
            data_as_of: string;
            count_released: number;
        } & {
            [key: string]: unknown;
        };
        /** @description get_ledger_edition */
        LedgerEdition: {
            edition: {
                edition_id: string;
                /** @description YYYY-MM */
                period: string;
                /** @description open or closed (a closed edition never changes) */
                status: string;
                /** Format: date */
                data_as_of: string;
                count_released: number;
                /** Format: date-time */
                closed_at: string | null;
            } & {
                [key: string]: unknown;
            };
            document: components["schemas"]["LedgerEditionDocument"];
            /** @description SHA-256 (hex) of the canonical JSON of document */
            edition_hash: string;
            /** @description how a client recomputes edition_hash */
            hash_method: {
                algorithm: string;
                encoding: string;
                over: string;
                canonical_json: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        /** @description the published edition document, exactly the value edition_hash is computed over; a closed edition serves it verbatim */
        LedgerEditionDocument: {
            edition_id: string;
            period: string;
            /** @description open or closed (a closed edition never changes) */
            status: string;
            /** Format: date */
            data_as_of: string;
            executive_summary: string;
            confirmed_changes: ({
                signal_id: string;
                product_id: string;
                product_name: string;
                dimension: string;
                summary: string;
                /** Format: date */
                released_at: string;
                observation_window: {
                    /** Format: date */
                    start: string;
                    /** Format: date */
                    end: string;
                    /** Format: date */
                    exact_change_date: string | null;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            })[];
            category_benchmarks: ({
                name: string;
                value: number | null;
                unit: string;
                cohort: {
                    description: string;
                    denominator: number;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            })[];
            serving_economics: ({
                product_id: string;
                product_name: string;
                retailer: string;
                /** Format: date */
                observed_at: string;
                /** @description list */
                price_basis: string;
                price_cents: number;
                servings_per_container: number;
                price_per_serving_usd: number;
                calculation: string;
            } & {
                [key: string]: unknown;
            })[];
            product_comparison: ({
                product_id: string;
                product_name: string;
                state_id: string;
                serving: ({
                    size: number | null;
                    unit: string | null;
                    servings_per_container: number | null;
                } & {
                    [key: string]: unknown;
                }) | null;
                declared: ({
                    ingredient_id: string | null;
                    declared_name: string;
                    amount: number | null;
                    unit: string | null;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            })[];
            limitations: string[];
        } & {
            [key: string]: unknown;
        };
        /** @description the watch operations */
        Watch: components["schemas"]["WatchList"] | components["schemas"]["WatchAdded"] | components["schemas"]["WatchRemoved"] | components["schemas"]["WatchReceipt"];
        /** @description list_watched_products */
        WatchList: {
            items: components["schemas"]["WatchItem"][];
            count: number;
            /** @description the account's watch limit */
            limit: number;
        } & {
            [key: string]: unknown;
        };
        WatchItem: {
            product_id: string;
            name: string;
            brand_name: string;
            /** Format: date-time */
            watched_since: string;
            /** @description monitored, not_monitored or source_unreadable (open enum) */
            monitoring_state: string;
            currently_unreadable: boolean | null;
            /** Format: date-time */
            unreadable_since: string | null;
            /** Format: date-time */
            last_read_at: string | null;
            /** Format: date-time */
            last_checked_at: string | null;
            /** Format: date-time */
            next_check_due: string | null;
            check_overdue: boolean | null;
            check_interval_hours: number;
        } & {
            [key: string]: unknown;
        };
        /** @description watch_product */
        WatchAdded: {
            /** @description false when the product was already watched (idempotent) */
            changed: boolean;
            item: components["schemas"]["WatchItem"];
            count: number;
            limit: number;
        } & {
            [key: string]: unknown;
        };
        /** @description unwatch_product */
        WatchRemoved: {
            /** @description false when the product was not watched (idempotent) */
            changed: boolean;
            /** @description alerts not yet sent that the removal stopped; nothing already delivered is removed */
            alerts_cancelled: number;
            count: number;
            limit: number;
        } & {
            [key: string]: unknown;
        };
        /** @description get_watch_receipt */
        WatchReceipt: {
            receipt: {
                period: string;
                /** Format: date */
                period_start: string;
                /** Format: date */
                period_end: string;
                period_complete: boolean;
                items: components["schemas"]["WatchReceiptItem"][];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        WatchReceiptItem: {
            product_id: string;
            name: string;
            brand_name: string;
            coverage: {
                /** @description covered or partly_covered: a period the monitoring ledger does not reach is partly covered, never zero */
                state: string;
                covered_days: number;
                days_in_period: number;
                period_complete: boolean;
            } & {
                [key: string]: unknown;
            };
            /** @description null when the monitoring ledger reaches no day of the period: unknown, never zero */
            checks: ({
                valid: number;
                empty: number;
                unreadable: number;
                recoveries: number;
            } & {
                [key: string]: unknown;
            }) | null;
            confirmed_signals: {
                count: number;
                signal_ids: string[];
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        Calculation: {
            /** @description price_per_serving, price_per_gram_of_ingredient, … */
            name: string;
            result: number | null;
            unit: string;
            formula: string;
            operands: components["schemas"]["Operand"][];
            /** Format: date */
            as_of: string;
            /** @enum {string|null} */
            price_basis?: "list" | "promotional" | "subscription" | "unspecified" | null;
            product_id?: string | null;
            note?: string | null;
        };
        Operand: {
            name: string;
            value: number | string | null;
            unit: string | null;
            /** @description which fact the operand comes from */
            source: string | null;
        };
        ResearchContext: {
            ingredient_id: string;
            ingredient_name: string;
            studied_range: {
                low: number | null;
                high: number | null;
                unit: string;
                basis: string;
            } | null;
            population: string | null;
            evidence: string;
            references: components["schemas"]["Reference"][];
            note: string;
        };
        Reference: {
            title: string;
            year: number | null;
            kind: string;
            url: string | null;
        };
        RegulatoryRecord: {
            ingredient_id: string;
            ingredient_name: string;
            /** @description warning_letter, import_alert, consumer_advisory, guidance, rule, … */
            record_kind: string;
            authority: string;
            year: number | null;
            title: string;
            /** @description what the filing is, never worded as an approval, a product warning or a finding of harm */
            what_it_is: string;
            reference: components["schemas"]["Reference"] & (Record<string, never> | null);
        };
        Confidence: {
            /** @enum {string} */
            level: "high" | "medium" | "low" | "none";
            basis: string;
        };
        ErrorEnvelope: {
            request_id: string;
            capability: string;
            /** @enum {string} */
            status: "refused";
            error: {
                code: components["schemas"]["ErrorCode"];
                message: string;
                details: components["schemas"]["ErrorDetails"];
                documentation: string;
            };
            limitations: string[];
            record_version: string;
            disclaimer: string;
        };
        /** @description What the refusal names; for invalid_request the field, for insufficient_scope required_scope. Open: new members may appear. */
        ErrorDetails: {
            /** @description invalid_request: body, query, path or header */
            location?: string;
            /** @description invalid_request and not_found: the field at fault */
            field?: string;
            /** @description invalid_request: up to 10 problems */
            issues?: ({
                field: string;
                problem: string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description insufficient_scope: the scope the capability requires */
            required_scope?: string;
            /** @description plan_entitlement_required */
            capability?: string;
            /** @description plan_entitlement_required */
            plan?: string;
            /** @description account_binding_required: how many accounts the organization is bound to */
            bound_accounts?: number;
            /** @description rate_limited: minute, hour or day */
            window?: string;
            /** @description extraction_limit_reached: product, signal or ingredient */
            budget?: string;
            /** @description extraction_limit_reached: the day's budget; watch_limit_reached: the watch limit */
            limit?: number;
            /** @description extraction_limit_reached: distinct entities already answered today */
            used?: number;
            /** @description extraction_limit_reached: what is left of the day's budget */
            remaining?: number;
            /** @description extraction_limit_reached: distinct new entities the answer would have named */
            needed?: number;
            /** @description watch_limit_reached: products on the watchlist */
            count?: number;
            /** @description method_not_allowed: the methods the path takes (also in the Allow header) */
            allowed_methods?: string[];
            /** @description not_found on compare_products and the ingredient contexts: the ids the Record does not hold */
            unknown?: string[];
            /** @description not_found on watch_product: the id the Record does not hold */
            product_id?: string;
        } & {
            [key: string]: unknown;
        };
        HealthAnswer: {
            /** @enum {string} */
            status: "ok";
            api_version: string;
        };
        /** @description Branch on the code, never on error.message. An open enum: a code not listed here may appear; treat it by its HTTP status. Meaning and caller action of each: x-error-codes. */
        ErrorCode: ("invalid_credentials" | "insufficient_scope" | "plan_entitlement_required" | "key_suspended" | "account_binding_required" | "watch_limit_reached" | "product_not_watchable" | "rate_limited" | "extraction_limit_reached" | "extraction_pattern_refused" | "invalid_request" | "payload_too_large" | "not_found" | "unsupported_capability" | "method_not_allowed" | "internal_error") | string;
    };
    responses: never;
    parameters: {
        /**
         * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
         * @example api
         */
        "X-Service-Origin": "api" | "mcp";
    };
    requestBodies: never;
    headers: {
        /**
         * @description Requests allowed in the reported window (RateLimit-Policy).
         * @example 30
         */
        "RateLimit-Limit": number;
        /**
         * @description Requests left in the reported window.
         * @example 29
         */
        "RateLimit-Remaining": number;
        /**
         * @description Seconds until the reported window resets.
         * @example 42
         */
        "RateLimit-Reset": number;
        /**
         * @description The reported window: minute, hour or day, whichever is closest to exhaustion.
         * @example minute
         */
        "RateLimit-Policy": string;
        /**
         * @description The request id (req_ + 24 hex); the same as request_id in the body. Quote it to support.
         * @example req_0123456789abcdef01234567
         */
        "X-Request-Id": string;
        /**
         * @description Seconds to wait. rate_limited: until the window admits a request (retry once). extraction_limit_reached: until 00:00 UTC, when the daily budget resets. extraction_pattern_refused: the cool-down.
         * @example 17
         */
        "Retry-After": number;
        /**
         * @description On every 401: the Bearer challenge (RFC 6750), with error="invalid_token" when a key was presented. It never says why the key failed.
         * @example Bearer realm="evidence-record", error="invalid_token"
         */
        "WWW-Authenticate": string;
        /**
         * @description Answers are never cached by shared caches; cache on your side keyed on record_version.
         * @example private, no-store, max-age=0, must-revalidate
         */
        "Cache-Control": "private, no-store, max-age=0, must-revalidate";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Serving */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "status": "ok",
                     *       "api_version": "1.0.0"
                     *     }
                     */
                    "application/json": components["schemas"]["HealthAnswer"];
                };
            };
        };
    };
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.1 document */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /**
                     * @description The document may be cached for five minutes.
                     * @example public, max-age=300
                     */
                    "Cache-Control"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    search_record: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 8192 bytes; unknown properties are refused. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "query": "caffeine and beta-alanine pre-workout"
                 *     }
                 */
                "application/json": {
                    query: string;
                };
            };
        };
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "search_record",
                     *       "status": "supported",
                     *       "summary": "Answer a free-text question with a small ranked set of matching products and what matched (name, alias or declared ingredient). Never a listing.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "products": [
                     *         {
                     *           "product_id": "prd_2ywha9ykwyqd",
                     *           "name": "Surge",
                     *           "brand_id": "brd_ironvale",
                     *           "brand_name": "Ironvale Nutrition",
                     *           "category": "pre-workout",
                     *           "form": "powder",
                     *           "depth_class": "TRACKED",
                     *           "retired": false,
                     *           "retired_on": null
                     *         }
                     *       ],
                     *       "coverage": {
                     *         "query_normalized": "ironvale surge caffeine",
                     *         "result_cap": 5,
                     *         "results": [
                     *           {
                     *             "rank": 1,
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "score": 150,
                     *             "matched": [
                     *               {
                     *                 "field": "name",
                     *                 "value": "Surge"
                     *               },
                     *               {
                     *                 "field": "declared_ingredient",
                     *                 "value": "Caffeine Anhydrous",
                     *                 "ingredient_id": "ing_caffeine"
                     *               }
                     *             ]
                     *           }
                     *         ],
                     *         "more_matches": false,
                     *         "ingredients_recognised": [
                     *           {
                     *             "ingredient_id": "ing_caffeine",
                     *             "name": "Caffeine",
                     *             "matched": "caffeine",
                     *             "by": "name"
                     *           }
                     *         ]
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["SearchCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    resolve_product: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 8192 bytes; unknown properties are refused. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "identifier": "Ironvale Surge"
                 *     }
                 */
                "application/json": {
                    identifier: string;
                };
            };
        };
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "resolve_product",
                     *       "status": "supported",
                     *       "summary": "Resolve a brand, product name or alias to one canonical product_id. Never guesses: a generic name answers ambiguous with candidates, an uncovered one unsupported.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "product": {
                     *         "product_id": "prd_2ywha9ykwyqd",
                     *         "name": "Surge",
                     *         "brand_id": "brd_ironvale",
                     *         "brand_name": "Ironvale Nutrition",
                     *         "category": "pre-workout",
                     *         "form": "powder",
                     *         "depth_class": "TRACKED",
                     *         "retired": false,
                     *         "retired_on": null
                     *       },
                     *       "coverage": {
                     *         "identifier_normalized": "iv surge",
                     *         "matched_on": "alias",
                     *         "matched_value": "IV Surge"
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["ResolveCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_product_record: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path: {
                /**
                 * @description Canonical product id, prd_ and 12 base-36 characters. Names and aliases are invalid_request: resolve them with resolve_product first.
                 * @example prd_0a1b2c3d4e5f
                 */
                product_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_product_record",
                     *       "status": "supported",
                     *       "summary": "The product record: identity, serving configuration, declared ingredients, captured prices and freshness, with dates and limitations.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "product": {
                     *         "product_id": "prd_2ywha9ykwyqd",
                     *         "name": "Surge",
                     *         "brand_id": "brd_ironvale",
                     *         "brand_name": "Ironvale Nutrition",
                     *         "category": "pre-workout",
                     *         "form": "powder",
                     *         "depth_class": "TRACKED",
                     *         "retired": false,
                     *         "retired_on": null
                     *       },
                     *       "coverage": {
                     *         "latest_state": {
                     *           "state_id": "hs_4k2m9x7q1c0d",
                     *           "observed_from": "2026-06-02",
                     *           "observed_to": "2026-11-16",
                     *           "classification": "comparable"
                     *         },
                     *         "freshness": {
                     *           "label_observed_to": "2026-11-16",
                     *           "newest_price_observed_at": "2026-11-15"
                     *         },
                     *         "source_health": [
                     *           {
                     *             "kind": "manufacturer",
                     *             "retailer": null,
                     *             "readable": true,
                     *             "since": "2026-01-05",
                     *             "last_read_on": "2026-11-16",
                     *             "last_captured_on": "2026-11-16"
                     *           }
                     *         ]
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["ProductRecordCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_formula_history: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path: {
                /**
                 * @description Canonical product id, prd_ and 12 base-36 characters. Names and aliases are invalid_request: resolve them with resolve_product first.
                 * @example prd_0a1b2c3d4e5f
                 */
                product_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_formula_history",
                     *       "status": "supported",
                     *       "summary": "The timeline of captured label states, the depth of recoverable history, which states are comparable, and the approved Signals between them.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "product": {
                     *         "product_id": "prd_2ywha9ykwyqd",
                     *         "name": "Surge",
                     *         "brand_id": "brd_ironvale",
                     *         "brand_name": "Ironvale Nutrition",
                     *         "category": "pre-workout",
                     *         "form": "powder",
                     *         "depth_class": "TRACKED",
                     *         "retired": false,
                     *         "retired_on": null
                     *       },
                     *       "history": [
                     *         {
                     *           "state_id": "hs_1a2b3c4d5e6f",
                     *           "observed_from": "2026-01-05",
                     *           "observed_to": "2026-10-20",
                     *           "classification": "comparable",
                     *           "serving": {
                     *             "serving_size": 12,
                     *             "serving_unit": "g",
                     *             "servings_per_container": 30,
                     *             "description": "1 scoop (12 g)"
                     *           },
                     *           "declared_ingredient_count": 6,
                     *           "note": null,
                     *           "comparable": true
                     *         },
                     *         {
                     *           "state_id": "hs_4k2m9x7q1c0d",
                     *           "observed_from": "2026-06-02",
                     *           "observed_to": "2026-11-16",
                     *           "classification": "comparable",
                     *           "serving": {
                     *             "serving_size": 12,
                     *             "serving_unit": "g",
                     *             "servings_per_container": 30,
                     *             "description": "1 scoop (12 g)"
                     *           },
                     *           "declared_ingredient_count": 6,
                     *           "note": null,
                     *           "comparable": true
                     *         }
                     *       ],
                     *       "signals": [
                     *         {
                     *           "signal_id": "sig_9r4xal80h2ba",
                     *           "product": {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "name": "Surge",
                     *             "brand_id": "brd_ironvale",
                     *             "brand_name": "Ironvale Nutrition"
                     *           },
                     *           "dimension": "formula",
                     *           "category": "pre-workout",
                     *           "summary": "Caffeine per serving went from 300 mg to 250 mg.",
                     *           "status": "released",
                     *           "observation_window": {
                     *             "start": "2026-10-20",
                     *             "end": "2026-10-27",
                     *             "exact_change_date": null
                     *           },
                     *           "review": {
                     *             "released_at": "2026-11-03",
                     *             "reviewed": true
                     *           },
                     *           "signal_url": "https://api.evidence-record.example/api/v1/signals/sig_9r4xal80h2ba",
                     *           "before": {
                     *             "state_id": "hs_1a2b3c4d5e6f"
                     *           },
                     *           "after": {
                     *             "state_id": "hs_4k2m9x7q1c0d"
                     *           },
                     *           "corrections": []
                     *         }
                     *       ],
                     *       "coverage": {
                     *         "depth_class": "TRACKED",
                     *         "depth_of_history": {
                     *           "class": "comparable_timeline",
                     *           "span_days": 315
                     *         },
                     *         "first_observed": "2026-01-05",
                     *         "last_observed": "2026-11-16",
                     *         "states": 2,
                     *         "comparable_states": 2,
                     *         "comparable_pairs": 1,
                     *         "released_signals": 1,
                     *         "withdrawn_signals": 0
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["HistoryCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    explain_signal: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path: {
                /**
                 * @description Signal id, sig_ and 12 base-36 characters. A Signal that is not approved answers not_found, the same as an invented id.
                 * @example sig_0a1b2c3d4e5f
                 */
                signal_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "explain_signal",
                     *       "status": "supported",
                     *       "summary": "One confirmed change: before and after state, observation window, evidence, release date and permanent address.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "product": {
                     *         "product_id": "prd_2ywha9ykwyqd",
                     *         "name": "Surge",
                     *         "brand_id": "brd_ironvale",
                     *         "brand_name": "Ironvale Nutrition",
                     *         "category": "pre-workout",
                     *         "form": "powder",
                     *         "depth_class": "TRACKED",
                     *         "retired": false,
                     *         "retired_on": null
                     *       },
                     *       "signals": [
                     *         {
                     *           "signal_id": "sig_9r4xal80h2ba",
                     *           "product": {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "name": "Surge",
                     *             "brand_id": "brd_ironvale",
                     *             "brand_name": "Ironvale Nutrition"
                     *           },
                     *           "dimension": "formula",
                     *           "category": "pre-workout",
                     *           "summary": "Caffeine per serving went from 300 mg to 250 mg.",
                     *           "status": "released",
                     *           "observation_window": {
                     *             "start": "2026-10-20",
                     *             "end": "2026-10-27",
                     *             "exact_change_date": null
                     *           },
                     *           "review": {
                     *             "released_at": "2026-11-03",
                     *             "reviewed": true
                     *           },
                     *           "signal_url": "https://api.evidence-record.example/api/v1/signals/sig_9r4xal80h2ba",
                     *           "before": {
                     *             "state_id": "hs_1a2b3c4d5e6f"
                     *           },
                     *           "after": {
                     *             "state_id": "hs_4k2m9x7q1c0d"
                     *           },
                     *           "corrections": []
                     *         }
                     *       ],
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"];
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    list_signal_changes: {
        parameters: {
            query?: {
                /**
                 * @description Release date, YYYY-MM-DD (UTC), exclusive: only Signals released after this date. Store the newest review.released_at you processed and pass it here on the next run; release dates never move. Default: no lower bound.
                 * @example 2026-11-01
                 */
                since?: string;
                /**
                 * @description Release date, YYYY-MM-DD (UTC), inclusive: only Signals released on or before this date. Default: no upper bound.
                 * @example 2026-11-30
                 */
                until?: string;
                /**
                 * @description Canonical product id, prd_ and 12 base-36 characters. Names and aliases are invalid_request: resolve them with resolve_product first.
                 * @example prd_0a1b2c3d4e5f
                 */
                product_id?: string;
                /**
                 * @description The brand filter takes a brand id (brd_…) as it appears in ProductIdentity.brand_id, never a brand name.
                 * @example brd_ironvale
                 */
                brand?: string;
                /**
                 * @description Signal dimensions are formula, serving, price, identity; an open enum: new members may appear.
                 * @example formula
                 */
                dimension?: string;
                /**
                 * @description The Record covers one category, pre-workout; an open enum.
                 * @example pre-workout
                 */
                category?: string;
                /**
                 * @description Page size, 1 to 25; default 10.
                 * @example 10
                 */
                limit?: number;
                /**
                 * @description next_cursor of the previous page. A cursor is opaque, signed by the service, bound to the filters it was issued for and valid 48 hours; any other cursor, or one sent with different filters, is invalid_request. Follow next_cursor until it is null.
                 * @example c1.eyJyIjoiMjAyNi0xMS0wMyJ9.sig
                 */
                cursor?: string;
            };
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "list_signal_changes",
                     *       "status": "supported",
                     *       "summary": "Approved Signals newest release first. Poll with since = the newest review.released_at you processed; follow next_cursor until null.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "signals": [
                     *         {
                     *           "signal_id": "sig_9r4xal80h2ba",
                     *           "product": {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "name": "Surge",
                     *             "brand_id": "brd_ironvale",
                     *             "brand_name": "Ironvale Nutrition"
                     *           },
                     *           "dimension": "formula",
                     *           "category": "pre-workout",
                     *           "summary": "Caffeine per serving went from 300 mg to 250 mg.",
                     *           "status": "released",
                     *           "observation_window": {
                     *             "start": "2026-10-20",
                     *             "end": "2026-10-27",
                     *             "exact_change_date": null
                     *           },
                     *           "review": {
                     *             "released_at": "2026-11-03",
                     *             "reviewed": true
                     *           },
                     *           "signal_url": "https://api.evidence-record.example/api/v1/signals/sig_9r4xal80h2ba",
                     *           "before": {
                     *             "state_id": "hs_1a2b3c4d5e6f"
                     *           },
                     *           "after": {
                     *             "state_id": "hs_4k2m9x7q1c0d"
                     *           },
                     *           "corrections": []
                     *         }
                     *       ],
                     *       "next_cursor": null,
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"];
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    compare_products: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 8192 bytes; unknown properties are refused. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "product_ids": [
                 *         "prd_0a1b2c3d4e5f",
                 *         "prd_1b2c3d4e5f6g"
                 *       ]
                 *     }
                 */
                "application/json": {
                    product_ids: string[];
                };
            };
        };
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "compare_products",
                     *       "status": "supported",
                     *       "summary": "Declared doses of 2 or 3 products side by side, with price per serving as a calculation. Never names a winner; refuses REGISTERED-depth products.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "products": [
                     *         {
                     *           "product_id": "prd_2ywha9ykwyqd",
                     *           "name": "Surge",
                     *           "brand_id": "brd_ironvale",
                     *           "brand_name": "Ironvale Nutrition",
                     *           "category": "pre-workout",
                     *           "form": "powder",
                     *           "depth_class": "TRACKED",
                     *           "retired": false,
                     *           "retired_on": null
                     *         },
                     *         {
                     *           "product_id": "prd_r8lqu59yxwon",
                     *           "name": "Surge Pre-Workout",
                     *           "brand_id": "brd_vantorra",
                     *           "brand_name": "Vantorra Sport",
                     *           "category": "pre-workout",
                     *           "form": "powder",
                     *           "depth_class": "TRACKED",
                     *           "retired": false,
                     *           "retired_on": null
                     *         }
                     *       ],
                     *       "comparison": {
                     *         "basis": "Amounts per serving as declared on each product's latest label state, in the label's own units.",
                     *         "states": [
                     *           {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "state_id": "hs_4k2m9x7q1c0d",
                     *             "observed_from": "2026-06-02",
                     *             "observed_to": "2026-11-16",
                     *             "classification": "comparable"
                     *           },
                     *           {
                     *             "product_id": "prd_r8lqu59yxwon",
                     *             "state_id": "hs_7h8j9k0l1m2n",
                     *             "observed_from": "2026-03-11",
                     *             "observed_to": "2026-11-14",
                     *             "classification": "comparable"
                     *           }
                     *         ],
                     *         "serving": [
                     *           {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "serving_size": 12,
                     *             "serving_unit": "g",
                     *             "servings_per_container": 30,
                     *             "description": "1 scoop (12 g)"
                     *           },
                     *           {
                     *             "product_id": "prd_r8lqu59yxwon",
                     *             "serving_size": 10.5,
                     *             "serving_unit": "g",
                     *             "servings_per_container": 25,
                     *             "description": "1 scoop (10.5 g)"
                     *           }
                     *         ],
                     *         "ingredients": [
                     *           {
                     *             "ingredient_id": "ing_caffeine",
                     *             "name": "Caffeine",
                     *             "declared": [
                     *               {
                     *                 "product_id": "prd_2ywha9ykwyqd",
                     *                 "declared": true,
                     *                 "declared_name": "Caffeine Anhydrous",
                     *                 "amount": 250,
                     *                 "unit": "mg",
                     *                 "blend": null
                     *               },
                     *               {
                     *                 "product_id": "prd_r8lqu59yxwon",
                     *                 "declared": false,
                     *                 "declared_name": null,
                     *                 "amount": null,
                     *                 "unit": null,
                     *                 "blend": null
                     *               }
                     *             ]
                     *           }
                     *         ],
                     *         "blends": [],
                     *         "note": "Not declared means not on the label as captured (undisclosed), not absent from the product."
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        comparison?: components["schemas"]["Comparison"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_serving_economics: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path: {
                /**
                 * @description Canonical product id, prd_ and 12 base-36 characters. Names and aliases are invalid_request: resolve them with resolve_product first.
                 * @example prd_0a1b2c3d4e5f
                 */
                product_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_serving_economics",
                     *       "status": "supported",
                     *       "summary": "Price per serving (and per gram of declared ingredients where meaningful) as calculations with operands, list and promotional kept apart.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "product": {
                     *         "product_id": "prd_2ywha9ykwyqd",
                     *         "name": "Surge",
                     *         "brand_id": "brd_ironvale",
                     *         "brand_name": "Ironvale Nutrition",
                     *         "category": "pre-workout",
                     *         "form": "powder",
                     *         "depth_class": "TRACKED",
                     *         "retired": false,
                     *         "retired_on": null
                     *       },
                     *       "coverage": {
                     *         "observations": 12,
                     *         "first_observed_at": "2026-01-08",
                     *         "last_observed_at": "2026-11-15",
                     *         "price_bases_observed": [
                     *           "list",
                     *           "promotional"
                     *         ],
                     *         "price_runs": [
                     *           {
                     *             "retailer": "Shelfwise",
                     *             "price_basis": "list",
                     *             "price": 44.99,
                     *             "first_observed_at": "2026-01-08",
                     *             "last_observed_at": "2026-11-15",
                     *             "observations": 10
                     *           }
                     *         ],
                     *         "per_gram_basis": {
                     *           "price_basis": "list",
                     *           "as_of": "2026-11-15"
                     *         }
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["ServingEconomicsCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_research_context: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 8192 bytes; unknown properties are refused. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "ingredient_ids": [
                 *         "ing_caffeine",
                 *         "ing_beta_alanine"
                 *       ]
                 *     }
                 */
                "application/json": {
                    ingredient_ids?: string[];
                    product_id?: string;
                };
            };
        };
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_research_context",
                     *       "status": "supported",
                     *       "summary": "Studied ranges and the published evidence behind them for up to 5 ingredients, or for the ingredients a product declares.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "coverage": {
                     *         "ingredients": [
                     *           {
                     *             "ingredient_id": "ing_caffeine",
                     *             "name": "Caffeine",
                     *             "research_entries": 1
                     *           }
                     *         ],
                     *         "from_product_label": null
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["ResearchCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_regulatory_context: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 8192 bytes; unknown properties are refused. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "product_id": "prd_0a1b2c3d4e5f"
                 *     }
                 */
                "application/json": {
                    ingredient_ids?: string[];
                    product_id?: string;
                };
            };
        };
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_regulatory_context",
                     *       "status": "supported",
                     *       "summary": "Regulatory records and documented cautions for up to 5 ingredients, or for the ingredients a product declares. A filing is never an approval or a finding of harm.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "product": {
                     *         "product_id": "prd_2ywha9ykwyqd",
                     *         "name": "Surge",
                     *         "brand_id": "brd_ironvale",
                     *         "brand_name": "Ironvale Nutrition",
                     *         "category": "pre-workout",
                     *         "form": "powder",
                     *         "depth_class": "TRACKED",
                     *         "retired": false,
                     *         "retired_on": null
                     *       },
                     *       "coverage": {
                     *         "ingredients": [
                     *           {
                     *             "ingredient_id": "ing_caffeine",
                     *             "name": "Caffeine",
                     *             "regulatory_records": 1,
                     *             "documented_cautions": 1
                     *           }
                     *         ],
                     *         "from_product_label": {
                     *           "product_id": "prd_2ywha9ykwyqd",
                     *           "state_id": "hs_4k2m9x7q1c0d"
                     *         }
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["RegulatoryCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_category_snapshot: {
        parameters: {
            query?: {
                /**
                 * @description First release date of the window, YYYY-MM-DD (UTC), inclusive. A category snapshot window is at most 92 days, both ends inclusive; with neither from nor to it covers the last 30 days of releases.
                 * @example 2026-10-01
                 */
                from?: string;
                /**
                 * @description Last release date of the window, YYYY-MM-DD (UTC), inclusive. Default: today, or from plus the maximum window.
                 * @example 2026-10-31
                 */
                to?: string;
                /**
                 * @description Page size, 1 to 25; default 10.
                 * @example 10
                 */
                limit?: number;
                /**
                 * @description next_cursor of the previous page. A cursor is opaque, signed by the service, bound to the filters it was issued for and valid 48 hours; any other cursor, or one sent with different filters, is invalid_request. Follow next_cursor until it is null.
                 * @example c1.eyJyIjoiMjAyNi0xMS0wMyJ9.sig
                 */
                cursor?: string;
            };
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_category_snapshot",
                     *       "status": "supported",
                     *       "summary": "A summary of approved Signals and coverage for one capped date window, paged with cursor; every proportion names its denominator.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "signals": [
                     *         {
                     *           "signal_id": "sig_9r4xal80h2ba",
                     *           "product": {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "name": "Surge",
                     *             "brand_id": "brd_ironvale",
                     *             "brand_name": "Ironvale Nutrition"
                     *           },
                     *           "dimension": "formula",
                     *           "category": "pre-workout",
                     *           "summary": "Caffeine per serving went from 300 mg to 250 mg.",
                     *           "status": "released",
                     *           "observation_window": {
                     *             "start": "2026-10-20",
                     *             "end": "2026-10-27",
                     *             "exact_change_date": null
                     *           },
                     *           "review": {
                     *             "released_at": "2026-11-03",
                     *             "reviewed": true
                     *           },
                     *           "signal_url": "https://api.evidence-record.example/api/v1/signals/sig_9r4xal80h2ba",
                     *           "before": {
                     *             "state_id": "hs_1a2b3c4d5e6f"
                     *           },
                     *           "after": {
                     *             "state_id": "hs_4k2m9x7q1c0d"
                     *           },
                     *           "corrections": []
                     *         }
                     *       ],
                     *       "next_cursor": null,
                     *       "coverage": {
                     *         "category": "pre-workout",
                     *         "window": {
                     *           "from": "2026-10-26",
                     *           "to": "2026-11-24",
                     *           "days": 30,
                     *           "max_days": 92
                     *         },
                     *         "signals": {
                     *           "released_in_window": 1,
                     *           "by_dimension": [
                     *             {
                     *               "dimension": "formula",
                     *               "share": 1,
                     *               "numerator": 1,
                     *               "denominator": 1,
                     *               "cohort": "Signals released in the window"
                     *             }
                     *           ],
                     *           "by_status": [
                     *             {
                     *               "status": "released",
                     *               "share": 1,
                     *               "numerator": 1,
                     *               "denominator": 1,
                     *               "cohort": "Signals released in the window"
                     *             }
                     *           ]
                     *         },
                     *         "products": {
                     *           "covered": 40,
                     *           "by_depth_class": [
                     *             {
                     *               "depth_class": "TRACKED",
                     *               "share": 0.75,
                     *               "numerator": 30,
                     *               "denominator": 40,
                     *               "cohort": "products in the covered set"
                     *             }
                     *           ],
                     *           "with_signals_in_window": {
                     *             "share": 0.025,
                     *             "numerator": 1,
                     *             "denominator": 40,
                     *             "cohort": "products in the covered set"
                     *           }
                     *         },
                     *         "sources": {
                     *           "total": 95,
                     *           "unreadable": {
                     *             "share": 0.0105,
                     *             "numerator": 1,
                     *             "denominator": 95,
                     *             "cohort": "sources"
                     *           },
                     *           "by_kind": [
                     *             {
                     *               "kind": "manufacturer",
                     *               "total": 40,
                     *               "unreadable": {
                     *                 "share": 0.025,
                     *                 "numerator": 1,
                     *                 "denominator": 40,
                     *                 "cohort": "manufacturer sources"
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["CategorySnapshotCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    list_ledger_editions: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "list_ledger_editions",
                     *       "status": "supported",
                     *       "summary": "The ledger editions: period, status, data-as-of date and count released. Safe to cache: a closed edition never changes.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "ledger": {
                     *         "editions": [
                     *           {
                     *             "edition_id": "ed_2026_11",
                     *             "period": "2026-11",
                     *             "status": "open",
                     *             "data_as_of": "2026-11-24",
                     *             "count_released": 2
                     *           },
                     *           {
                     *             "edition_id": "ed_2026_10",
                     *             "period": "2026-10",
                     *             "status": "closed",
                     *             "data_as_of": "2026-10-31",
                     *             "count_released": 8
                     *           }
                     *         ]
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        ledger?: components["schemas"]["LedgerEditionList"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_ledger_edition: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path: {
                /**
                 * @description Ledger edition id, ed_YYYY_MM (the edition's UTC month).
                 * @example ed_2026_10
                 */
                edition_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_ledger_edition",
                     *       "status": "supported",
                     *       "summary": "One ledger edition: summary, confirmed changes released in the period, category benchmarks with cohorts, serving economics, comparison, limitations and edition_hash.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "signals": [
                     *         {
                     *           "signal_id": "sig_9r4xal80h2ba",
                     *           "product": {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "name": "Surge",
                     *             "brand_id": "brd_ironvale",
                     *             "brand_name": "Ironvale Nutrition"
                     *           },
                     *           "dimension": "formula",
                     *           "category": "pre-workout",
                     *           "summary": "Caffeine per serving went from 300 mg to 250 mg.",
                     *           "status": "released",
                     *           "observation_window": {
                     *             "start": "2026-10-20",
                     *             "end": "2026-10-27",
                     *             "exact_change_date": null
                     *           },
                     *           "review": {
                     *             "released_at": "2026-11-03",
                     *             "reviewed": true
                     *           },
                     *           "signal_url": "https://api.evidence-record.example/api/v1/signals/sig_9r4xal80h2ba",
                     *           "before": {
                     *             "state_id": "hs_1a2b3c4d5e6f"
                     *           },
                     *           "after": {
                     *             "state_id": "hs_4k2m9x7q1c0d"
                     *           },
                     *           "corrections": []
                     *         }
                     *       ],
                     *       "ledger": {
                     *         "edition": {
                     *           "edition_id": "ed_2026_10",
                     *           "period": "2026-10",
                     *           "status": "closed",
                     *           "data_as_of": "2026-10-31",
                     *           "count_released": 8,
                     *           "closed_at": "2026-11-03T15:00:00.000Z"
                     *         },
                     *         "document": {
                     *           "edition_id": "ed_2026_10",
                     *           "period": "2026-10",
                     *           "status": "closed",
                     *           "data_as_of": "2026-10-31",
                     *           "executive_summary": "8 confirmed changes were released in October 2026.",
                     *           "confirmed_changes": [
                     *             {
                     *               "signal_id": "sig_9r4xal80h2ba",
                     *               "product_id": "prd_2ywha9ykwyqd",
                     *               "product_name": "Ironvale Nutrition Surge",
                     *               "dimension": "formula",
                     *               "summary": "Caffeine per serving went from 300 mg to 250 mg.",
                     *               "released_at": "2026-10-14",
                     *               "observation_window": {
                     *                 "start": "2026-10-20",
                     *                 "end": "2026-10-27",
                     *                 "exact_change_date": null
                     *               }
                     *             }
                     *           ],
                     *           "category_benchmarks": [
                     *             {
                     *               "name": "median declared caffeine per serving",
                     *               "value": 250,
                     *               "unit": "mg",
                     *               "cohort": {
                     *                 "description": "products with a comparable label declaring caffeine",
                     *                 "denominator": 31
                     *               }
                     *             }
                     *           ],
                     *           "serving_economics": [],
                     *           "product_comparison": [],
                     *           "limitations": [
                     *             "Counts are of released Signals by release date, not by the date of the change."
                     *           ]
                     *         },
                     *         "edition_hash": "3f1c0e5b9d8a7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a291807f6e5d4c3b2a19080",
                     *         "hash_method": {
                     *           "algorithm": "sha256",
                     *           "encoding": "hex",
                     *           "over": "ledger.document",
                     *           "canonical_json": "object keys sorted recursively by UTF-16 code units; no whitespace; UTF-8 bytes"
                     *         }
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        ledger?: components["schemas"]["LedgerEdition"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    list_watched_products: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "list_watched_products",
                     *       "status": "supported",
                     *       "summary": "The products on the key's account watchlist with monitoring state, last read, next check due and whether the source is unreadable.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "watch": {
                     *         "items": [
                     *           {
                     *             "product_id": "prd_2ywha9ykwyqd",
                     *             "name": "Surge",
                     *             "brand_name": "Ironvale Nutrition",
                     *             "watched_since": "2026-11-20T09:12:44.000Z",
                     *             "monitoring_state": "monitored",
                     *             "currently_unreadable": false,
                     *             "unreadable_since": null,
                     *             "last_read_at": "2026-11-17T06:00:00.000Z",
                     *             "last_checked_at": "2026-11-17T06:00:00.000Z",
                     *             "next_check_due": "2026-11-24T06:00:00.000Z",
                     *             "check_overdue": false,
                     *             "check_interval_hours": 168
                     *           }
                     *         ],
                     *         "count": 1,
                     *         "limit": 10
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        watch?: components["schemas"]["WatchList"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. `account_binding_required`: Watch operations need the key's organization to be bound to exactly one account. Ask the operator to bind one account to the organization. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    watch_product: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 8192 bytes; unknown properties are refused. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "product_id": "prd_0a1b2c3d4e5f"
                 *     }
                 */
                "application/json": {
                    product_id: string;
                };
            };
        };
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "watch_product",
                     *       "status": "supported",
                     *       "summary": "Add a covered product to the account's watchlist (idempotent). Alerts arrive by email when Signals on it are released.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "watch": {
                     *         "changed": true,
                     *         "item": {
                     *           "product_id": "prd_2ywha9ykwyqd",
                     *           "name": "Surge",
                     *           "brand_name": "Ironvale Nutrition",
                     *           "watched_since": "2026-11-20T09:12:44.000Z",
                     *           "monitoring_state": "monitored",
                     *           "currently_unreadable": false,
                     *           "unreadable_since": null,
                     *           "last_read_at": "2026-11-17T06:00:00.000Z",
                     *           "last_checked_at": "2026-11-17T06:00:00.000Z",
                     *           "next_check_due": "2026-11-24T06:00:00.000Z",
                     *           "check_overdue": false,
                     *           "check_interval_hours": 168
                     *         },
                     *         "count": 1,
                     *         "limit": 10
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        watch?: components["schemas"]["WatchAdded"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. `account_binding_required`: Watch operations need the key's organization to be bound to exactly one account. Ask the operator to bind one account to the organization. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `not_found`: No record with that identifier. Report it as an absence in the Record. */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `watch_limit_reached`: The account's watch limit is reached. Remove a watch or move to a plan with a higher limit. `product_not_watchable`: This product is in the Record but is not monitored (retired), so it cannot be watched. Watch a covered, monitored product. */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    unwatch_product: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path: {
                /**
                 * @description Canonical product id, prd_ and 12 base-36 characters. Names and aliases are invalid_request: resolve them with resolve_product first.
                 * @example prd_0a1b2c3d4e5f
                 */
                product_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "unwatch_product",
                     *       "status": "supported",
                     *       "summary": "Remove a product from the watchlist (idempotent). Stops future alerts; removes nothing already delivered.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "watch": {
                     *         "changed": true,
                     *         "alerts_cancelled": 0,
                     *         "count": 0,
                     *         "limit": 10
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        watch?: components["schemas"]["WatchRemoved"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. `account_binding_required`: Watch operations need the key's organization to be bound to exactly one account. Ask the operator to bind one account to the organization. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_watch_receipt: {
        parameters: {
            query?: {
                /**
                 * @description period is a UTC calendar month, YYYY-MM; default the current month. A month that has not started is invalid_request; the current month is partial up to today.
                 * @example 2026-10
                 */
                period?: string;
            };
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_watch_receipt",
                     *       "status": "supported",
                     *       "summary": "Monitoring receipt for a month (YYYY-MM, default current): valid checks, empty attempts, recoveries and confirmed Signals per watched product.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "products": [
                     *         {
                     *           "product_id": "prd_2ywha9ykwyqd",
                     *           "name": "Surge",
                     *           "brand_id": "brd_ironvale",
                     *           "brand_name": "Ironvale Nutrition",
                     *           "category": "pre-workout",
                     *           "form": "powder",
                     *           "depth_class": "TRACKED",
                     *           "retired": false,
                     *           "retired_on": null
                     *         }
                     *       ],
                     *       "watch": {
                     *         "receipt": {
                     *           "period": "2026-10",
                     *           "period_start": "2026-10-01",
                     *           "period_end": "2026-10-31",
                     *           "period_complete": true,
                     *           "items": [
                     *             {
                     *               "product_id": "prd_2ywha9ykwyqd",
                     *               "name": "Surge",
                     *               "brand_name": "Ironvale Nutrition",
                     *               "coverage": {
                     *                 "state": "covered",
                     *                 "covered_days": 31,
                     *                 "days_in_period": 31,
                     *                 "period_complete": true
                     *               },
                     *               "checks": {
                     *                 "valid": 4,
                     *                 "empty": 0,
                     *                 "unreadable": 0,
                     *                 "recoveries": 0
                     *               },
                     *               "confirmed_signals": {
                     *                 "count": 1,
                     *                 "signal_ids": [
                     *                   "sig_9r4xal80h2ba"
                     *                 ]
                     *               }
                     *             }
                     *           ]
                     *         }
                     *       },
                     *       "coverage": {
                     *         "period": "2026-10",
                     *         "products_total": 1,
                     *         "products_covered": 1,
                     *         "products_partly_covered": 0
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        watch?: components["schemas"]["WatchReceipt"];
                        coverage?: components["schemas"]["WatchReceiptCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. `account_binding_required`: Watch operations need the key's organization to be bound to exactly one account. Ask the operator to bind one account to the organization. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. `extraction_limit_reached`: The organization's daily distinct-entity budget is spent. Wait for the next UTC day; rewording or narrowing spends more of the same budget. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
    get_record_version: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Self-reported attribution: api or mcp. Recorded on usage, never used to decide what a caller may do; any other value is invalid_request.
                 * @example api
                 */
                "X-Service-Origin"?: components["parameters"]["X-Service-Origin"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An answer about the Record. Every status except supported is still a real answer about the Record, not a failure. */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "request_id": "req_0123456789abcdef01234567",
                     *       "capability": "get_record_version",
                     *       "status": "supported",
                     *       "summary": "Record version, methodology version, supported category, coverage counts and source freshness. Spends no budget.",
                     *       "verified_facts": [],
                     *       "commercial_facts": [],
                     *       "calculations": [],
                     *       "research_context": [],
                     *       "regulatory_records": [],
                     *       "documented_cautions": [],
                     *       "limitations": [
                     *         "The Record shows what labels and sources declare; it performs no laboratory testing."
                     *       ],
                     *       "source_references": [],
                     *       "confidence": {
                     *         "level": "high",
                     *         "basis": "Read from one committed state of the Record."
                     *       },
                     *       "record_version": "rv_2026_11_24_001",
                     *       "record_as_of": "2026-11-24",
                     *       "record_timestamp": "2026-11-23T18:04:11.000Z",
                     *       "methodology_version": "method-2026.11",
                     *       "coverage": {
                     *         "record_version": "rv_2026_11_24_001",
                     *         "methodology_version": "method-2026.11",
                     *         "supported_category": "pre-workout",
                     *         "counts": {
                     *           "brands": 10,
                     *           "products": 42,
                     *           "products_by_depth_class": {
                     *             "REGISTERED": 2,
                     *             "CAPTURED": 10,
                     *             "TRACKED": 30
                     *           },
                     *           "retired_products": 1,
                     *           "released_signals": 61,
                     *           "withdrawn_signals": 1,
                     *           "corrected_signals": 2,
                     *           "ingredients": 48,
                     *           "history_states": 140
                     *         },
                     *         "source_freshness": {
                     *           "newest_observation_on": "2026-11-17",
                     *           "newest_label_capture_on": "2026-11-16",
                     *           "newest_price_observed_at": "2026-11-15",
                     *           "newest_monitoring_check_on": "2026-11-17",
                     *           "sources": 95,
                     *           "unreadable_sources": 1,
                     *           "unreadable_manufacturer_sources": 1
                     *         }
                     *       },
                     *       "disclaimer": "The Evidence Record reports what product labels and sources declare and what prices were observed. It performs no laboratory testing and gives no individualized medical advice or judgement of safety, effectiveness or suitability."
                     *     }
                     */
                    "application/json": components["schemas"]["AnswerEnvelope"] & {
                        coverage?: components["schemas"]["RecordVersionCoverage"];
                    };
                };
            };
            /** @description `invalid_request`: The request failed validation. Read error.details. */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `invalid_credentials`: The API key is missing or not valid. Fix the header; do not retry unchanged. */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `insufficient_scope`: This key does not carry the scope this capability requires. Grant the scope or stop. `plan_entitlement_required`: The organization's plan does not include this capability. Contact the operator. `key_suspended`: This key or its organization is suspended. Retrying does nothing; contact the operator. */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `payload_too_large`: The request body exceeds 8192 bytes. Send less. */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `rate_limited`: Too many requests in the current window. Wait Retry-After seconds, retry once. `extraction_pattern_refused`: This key's requests match a pattern of copying the Record; answers are paused. Wait Retry-After seconds; continuing the pattern suspends the key. */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
            /** @description `internal_error`: The service could not answer. Retry once with backoff; quote the request id. */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorEnvelope"];
                };
            };
        };
    };
}
