import { correctSignal, listReleasedSignals, type CorrectionResult, listUnreleasedSignals, releaseSignals, withdrawSignal } from '@evidence-record/curation';
import { publishNow } from '@evidence-record/signals';
import { SpanKind, initTracing, startSpan } from '@evidence-record/platform';
import { list, operatorName, optional, positional, Refused, required, UsageError, type AdminContext, type Noun } from '../cli';
import { natsSettings, type NatsSettings } from './nats';

/**
 * Tests and the benchmark release several batches in one database, each on a
 * later day: they set ER_TEST_TODAY, honoured only under NODE_ENV=test (never
 * in a deployment, whose images run NODE_ENV=production).
 */
function testClock(env: NodeJS.ProcessEnv): { clock?: () => Date } {
  const today = env.ER_TEST_TODAY;
  if (env.NODE_ENV !== 'test' || !today) return {};
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new UsageError('ER_TEST_TODAY is YYYY-MM-DD');
  return { clock: () => new Date(`${today}T12:00:00Z`) };
}

async function releaseVerb({ pool, flags, env }: AdminContext): Promise<Record<string, unknown>> {
  const chosen = list(flags, 'signal');
  if (flags.flags.signal === true) throw new UsageError('--signal names a Signal id (repeat it for several)');
  // Checked before anything is committed: a NATS_URL the services would refuse stops the release here.
  const nats = natsSettings(env);
  // A release starts a trace: its events carry it to the watch fan-out and on to every alert email.
  const tracing = initTracing({ service: 'admin', endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
  const span = startSpan('signal release', { kind: SpanKind.PRODUCER });
  try {
    const released = await releaseSignals(pool, {
      date: optional(flags, 'date'),
      ...testClock(env),
      ...(chosen.length ? { signalIds: chosen } : {}),
      releasedBy: operatorName({ flags, env }),
      publicBaseUrl: env.PUBLIC_BASE_URL!,
      traceparent: span.traceparent,
    });
    // The events are committed in the outbox with the release; publishing now is only a head start on the relay.
    const outbox = await publishNow(pool, nats.url, nats.prefix, released.event_ids, { streamReplicas: nats.streamReplicas });
    span.end({ attributes: { 'er.signals_released': released.signal_ids.length } });
    if (outbox.nats !== 'published') {
      throw new Refused(
        'nats_unavailable',
        `the release is committed, but NATS (${nats.display}) was ${outbox.nats}: no alert was sent yet; the events wait in the outbox and the signals service publishes them when NATS is back (or run: outbox drain)`,
        { released: { ...released }, outbox: { ...outbox } },
      );
    }
    return { ...released, outbox, trace_id: span.traceId };
  } catch (err) {
    span.end({ error: err });
    throw err;
  } finally {
    await tracing.shutdown();
  }
}

/**
 * Publishes a correction's notices now (the relay would within a second); an unreachable NATS is reported, not hidden.
 * `nats` is read before the correction commits (arguments are evaluated in order), so a bad NATS_URL stops it first.
 */
async function withNotices(ctx: AdminContext, nats: NatsSettings, out: CorrectionResult): Promise<Record<string, unknown>> {
  if (out.event_ids.length === 0) return { ...out };
  const outbox = await publishNow(ctx.pool, nats.url, nats.prefix, out.event_ids, { streamReplicas: nats.streamReplicas });
  if (outbox.nats !== 'published') {
    throw new Refused('nats_unavailable', `the ${out.kind} is committed, but NATS (${nats.display}) was ${outbox.nats}: the notices wait in the outbox and the signals service publishes them when NATS is back`, {
      [out.kind]: { ...out },
      outbox: { ...outbox },
    });
  }
  return { ...out, outbox };
}

/** Signals: release approved Signals as a dated batch; correct or withdraw a released one. */
export const signal: Noun = {
  noun: 'signal',
  summary: 'list Signals; release approved ones as today\'s batch; correct or withdraw a released Signal (curation)',
  verbs: {
    list: {
      usage: '--unreleased | --released [--limit N]   (unreleased: approved Signals waiting, with who each would email)',
      run: async ({ pool, flags }) => {
        if (flags.flags.unreleased === true) return { signals: await listUnreleasedSignals(pool) };
        if (flags.flags.released === true) {
          const limit = Number(optional(flags, 'limit') ?? 100);
          if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit is an integer from 1 to 10000');
          return { signals: await listReleasedSignals(pool, limit) };
        }
        throw new UsageError('signal list takes --unreleased or --released');
      },
    },
    release: {
      usage: '[--signal S]… [--by NAME]   (today\'s batch, UTC: the named approved Signals, or every approved one; one batch per date; publishes to NATS at once)',
      run: releaseVerb,
    },
    correct: {
      usage: '<signal_id> --note PUBLIC_NOTE [--summary CORRECTED_SUMMARY] [--operator-note TEXT]   (keeps id, address, release date and the released summary; emails every alerted account once)',
      run: async (ctx) =>
        withNotices(
          ctx,
          natsSettings(ctx.env),
          await correctSignal(ctx.pool, {
            signal_id: positional(ctx.flags, 0, 'signal_id'),
            note: required(ctx.flags, 'note'),
            summary: optional(ctx.flags, 'summary'),
            operatorNote: optional(ctx.flags, 'operator-note'),
            by: operatorName(ctx),
          }),
        ),
    },
    withdraw: {
      usage: '<signal_id> --note PUBLIC_NOTE [--operator-note TEXT]   (keeps id, address and release date; emails every alerted account once)',
      run: async (ctx) =>
        withNotices(
          ctx,
          natsSettings(ctx.env),
          await withdrawSignal(ctx.pool, {
            signal_id: positional(ctx.flags, 0, 'signal_id'),
            note: required(ctx.flags, 'note'),
            operatorNote: optional(ctx.flags, 'operator-note'),
            by: operatorName(ctx),
          }),
        ),
    },
  },
};
