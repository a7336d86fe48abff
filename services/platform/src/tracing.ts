import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  isSpanContextValid,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { createRequire } from 'node:module';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import { randomHex } from '@evidence-record/contract';
import type { Logger } from './logger';

export { SpanKind };

/**
 * W3C trace context across every hop: gateway → service, gateway → MCP →
 * gateway, release CLI → outbox → NATS → watch fan-out → NATS → email worker.
 *
 * The context always travels, whether or not spans are exported, so that
 * every log line of one request or one release carries the same trace_id.
 * Spans are recorded and exported only when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set; otherwise a hop passes the incoming context on unchanged and only the
 * first hop makes up a (not sampled) trace id. Contexts are passed by hand
 * (no async context manager): each hop has one obvious place to read it.
 */
const propagator = new W3CTraceContextPropagator();
let provider: TracerProvider | null = null;

/** Header (or message field) that carries the context between processes. */
export const TRACEPARENT = 'traceparent';

export interface Tracing {
  /** True when spans are exported over OTLP. */
  exporting: boolean;
  /** Flushes spans not yet exported. */
  shutdown: () => Promise<void>;
}

/** The OTLP/HTTP traces URL for a base endpoint, as the OpenTelemetry spec composes it. */
export function otlpTracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/**
 * Registers the W3C propagator and, only when `endpoint` is set, a tracer
 * provider exporting spans over OTLP/HTTP. Call once at start-up.
 */
export function initTracing(opts: { service: string; endpoint?: string | undefined; exportDelayMs?: number; log?: Logger }): Tracing {
  propagation.setGlobalPropagator(propagator);
  if (!opts.endpoint) return { exporting: false, shutdown: shutdownTracing };
  if (!provider) {
    // The SDK and its OTLP exporter are loaded only when spans are exported: most processes (every CLI
    // call, every service without an endpoint) never need them, and loading them cost about a tenth of a
    // second of each start.
    const load = createRequire(import.meta.url);
    const { OTLPTraceExporter } = load('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    const { resourceFromAttributes } = load('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
    const { BatchSpanProcessor, TracerProvider } = load('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
    provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': `evidence-record-${opts.service}`, 'service.namespace': 'evidence-record' }),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: otlpTracesUrl(opts.endpoint) }), scheduledDelayMillis: opts.exportDelayMs ?? 5_000 })],
    });
    trace.setGlobalTracerProvider(provider);
  }
  opts.log?.info({ otlp_traces_url: otlpTracesUrl(opts.endpoint) }, 'exporting trace spans');
  return { exporting: true, shutdown: shutdownTracing };
}

/** Exports what is left and stops exporting; safe to call when tracing is off. */
export async function shutdownTracing(): Promise<void> {
  const p = provider;
  if (!p) return;
  provider = null;
  await p.shutdown().catch(() => undefined);
}

type Carrier = Record<string, string | string[] | undefined>;

const getter: TextMapGetter<Carrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** The trace context an HTTP request or a message carries (ROOT when none or malformed). */
export function extractTraceContext(carrier: Carrier): Context {
  return propagator.extract(ROOT_CONTEXT, carrier, getter);
}

/** The context of one `traceparent` value (e.g. an event's field). */
export function traceContextOf(traceparent: string | null | undefined): Context {
  return traceparent ? extractTraceContext({ [TRACEPARENT]: traceparent }) : ROOT_CONTEXT;
}

/** One unit of work in a trace: what a log line names and what the next hop continues. */
export interface TraceSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Context to pass to the next hop or child span. */
  readonly context: Context;
  /** The W3C `traceparent` value for the next hop. */
  readonly traceparent: string;
  /** Ends the span (a no-op unless spans are exported). */
  end: (outcome?: { error?: unknown; attributes?: Attributes }) => void;
}


/**
 * Starts a span under `parent` (a context, a traceparent string, or nothing
 * for a new trace). Without an exporter nothing is recorded: an incoming
 * context is continued as it is, and a new trace gets random ids with the
 * sampled flag off, so a collector downstream does not expect its spans.
 */
export function startSpan(name: string, opts: { parent?: Context | string | null; kind?: SpanKind; attributes?: Attributes } = {}): TraceSpan {
  const parent = typeof opts.parent === 'string' ? traceContextOf(opts.parent) : (opts.parent ?? ROOT_CONTEXT);
  let span: Span;
  if (provider) {
    span = provider.getTracer('evidence-record').startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, ...(opts.attributes ? { attributes: opts.attributes } : {}) }, parent);
  } else {
    const incoming = trace.getSpanContext(parent);
    span = trace.wrapSpanContext(incoming && isSpanContextValid(incoming) ? incoming : { traceId: randomHex(16), spanId: randomHex(8), traceFlags: TraceFlags.NONE });
  }
  const context = trace.setSpan(parent, span);
  const sc = span.spanContext();
  return {
    traceId: sc.traceId,
    spanId: sc.spanId,
    context,
    traceparent: `00-${sc.traceId}-${sc.spanId}-0${(sc.traceFlags & TraceFlags.SAMPLED).toString(16)}`,
    end: (outcome = {}) => {
      if (!span.isRecording()) return;
      if (outcome.attributes) span.setAttributes(outcome.attributes);
      if (outcome.error !== undefined) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) });
      }
      span.end();
    },
  };
}
