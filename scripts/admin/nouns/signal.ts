import { correctSignal, releaseSignals, withdrawSignal } from '@evidence-record/curation';
import { publishNow } from '@evidence-record/signals';
import { SpanKind, initTracing, startSpan } from '@evidence-record/platform';
import { optional, positional, required, type AdminContext, type Noun } from '../cli';

const publicBaseUrl = (env: NodeJS.ProcessEnv) => env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:8080';

async function releaseVerb({ pool, flags, env }: AdminContext): Promise<Record<string, unknown>> {
  // A release starts a trace: its events carry it to the watch fan-out and on to every alert email.
  const tracing = initTracing({ service: 'admin', endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
  const span = startSpan('signal release', { kind: SpanKind.PRODUCER });
  try {
    const released = await releaseSignals(pool, {
      date: optional(flags, 'date'),
      releasedBy: optional(flags, 'by') ?? env.USER ?? 'operator',
      publicBaseUrl: publicBaseUrl(env),
      traceparent: span.traceparent,
    });
    // The events are committed in the outbox with the release; publishing now is only a head start on the relay.
    const outbox = await publishNow(pool, env.NATS_URL ?? 'nats://127.0.0.1:4222', env.NATS_PREFIX ?? '', released.event_ids);
    span.end({ attributes: { 'er.signals_released': released.signal_ids.length } });
    return { ...released, outbox, trace_id: span.traceId };
  } catch (err) {
    span.end({ error: err });
    throw err;
  } finally {
    await tracing.shutdown();
  }
}

/** Signals: release approved Signals as a dated batch; correct or withdraw a released one. */
export const signal: Noun = {
  noun: 'signal',
  summary: 'release approved Signals as one dated batch; correct or withdraw a released Signal (curation)',
  verbs: {
    release: {
      usage: '[--date YYYY-MM-DD] [--by NAME]   (one batch per date, each date after the last and not before today; needs NATS_URL/NATS_PREFIX to publish at once)',
      run: releaseVerb,
    },
    correct: {
      usage: '<signal_id> --note PUBLIC_NOTE [--summary CORRECTED_SUMMARY] [--operator-note TEXT]   (keeps id, address and release date)',
      run: async ({ pool, flags }) =>
        correctSignal(pool, {
          signal_id: positional(flags, 0, 'signal_id'),
          note: required(flags, 'note'),
          summary: optional(flags, 'summary'),
          operatorNote: optional(flags, 'operator-note'),
        }),
    },
    withdraw: {
      usage: '<signal_id> --note PUBLIC_NOTE [--operator-note TEXT]   (keeps id, address and release date)',
      run: async ({ pool, flags }) =>
        withdrawSignal(pool, { signal_id: positional(flags, 0, 'signal_id'), note: required(flags, 'note'), operatorNote: optional(flags, 'operator-note') }),
    },
  },
};
