import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics. Every service gets the same request series; services
 * add their own through `counter`/`gauge`/`histogram`.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests: Counter<'capability' | 'status' | 'code'>;
  readonly latency: Histogram<'capability' | 'status'>;
  readonly refusals: Counter<'code'>;
  readonly dependencyErrors: Counter<'dependency'>;

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    collectDefaultMetrics({ register: this.registry });
    this.requests = this.counter('er_requests_total', 'Requests by capability, HTTP status and error code', ['capability', 'status', 'code']);
    this.latency = this.histogram('er_request_duration_seconds', 'Request latency by capability and HTTP status', ['capability', 'status'], [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]);
    this.refusals = this.counter('er_refusals_total', 'Refusals by error code', ['code']);
    this.dependencyErrors = this.counter('er_dependency_errors_total', 'Errors talking to Postgres, Redis, NATS, SMTP or an upstream', ['dependency']);
  }

  /**
   * Starts the dependency error series of what this service talks to at 0,
   * so a dashboard sees "no errors" rather than "no data" and rate() works
   * from the first error on.
   */
  dependsOn(...dependencies: Array<'postgres' | 'redis' | 'nats' | 'smtp' | 'gateway' | 'upstream'>): this {
    for (const dependency of dependencies) this.dependencyErrors.inc({ dependency }, 0);
    return this;
  }

  counter<L extends string>(name: string, help: string, labelNames: L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }
  gauge<L extends string>(name: string, help: string, labelNames: L[] = []): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }
  histogram<L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, registers: [this.registry], ...(buckets ? { buckets } : {}) });
  }
}
