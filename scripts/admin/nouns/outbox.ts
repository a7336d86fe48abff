import { publishNow } from '@evidence-record/curation';
import { Refused, type Noun } from '../cli';

/** The event outbox: Signal release events waiting to be published to JetStream. */
export const outbox: Noun = {
  noun: 'outbox',
  summary: 'publish pending Signal release events to NATS JetStream now (the signals service relay does it every second)',
  verbs: {
    drain: {
      usage: '(uses NATS_URL and NATS_PREFIX)',
      run: async ({ pool, env }) => {
        const result = await publishNow(pool, env.NATS_URL!, env.NATS_PREFIX!);
        if (result.nats !== 'published') throw new Refused('nats_unavailable', `NATS ${result.nats}: ${result.pending} events still pending (${result.error ?? 'no detail'})`, { outbox: { ...result } });
        return { ...result };
      },
    },
  },
};
