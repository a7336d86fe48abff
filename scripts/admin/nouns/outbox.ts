import { publishNow } from '@evidence-record/signals';
import { Refused, type Noun } from '../cli';
import { natsSettings } from './nats';

/** The event outbox: Signal release events waiting to be published to JetStream. */
export const outbox: Noun = {
  noun: 'outbox',
  summary: 'publish pending Signal release events to NATS JetStream now (the signals service relay does it every second)',
  verbs: {
    drain: {
      usage: '(uses NATS_URL, NATS_PREFIX and NATS_STREAM_REPLICAS)',
      run: async ({ pool, env }) => {
        const nats = natsSettings(env);
        const result = await publishNow(pool, nats.url, nats.prefix, undefined, { streamReplicas: nats.streamReplicas });
        if (result.nats !== 'published') throw new Refused('nats_unavailable', `NATS ${result.nats}: ${result.pending} events still pending (${result.error ?? 'no detail'})`, { outbox: { ...result } });
        return { ...result };
      },
    },
  },
};
