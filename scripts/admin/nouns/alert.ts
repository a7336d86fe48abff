import { listAlerts } from '@evidence-record/curation';
import { listDeadLetters, replayAlert, showAlert } from '@evidence-record/email-worker';
import { optional, positional, Refused, required, UsageError, type Noun } from '../cli';
import { natsSettings } from './nats';

/** Watch alerts: dead letters the email worker gave up on, and their replay. */
export const alert: Noun = {
  noun: 'alert',
  summary: 'watch alert emails: list dead letters, show one alert, replay a dead letter',
  verbs: {
    list: {
      usage: '--account A   (the account\'s release alerts and correction notices, newest first)',
      run: async ({ pool, flags }) => ({ account_id: required(flags, 'account'), alerts: await listAlerts(pool, required(flags, 'account')) }),
    },
    'dead-letters': {
      usage: '[--limit N]   (alerts the email worker gave up on: 5xx rejection or too many attempts)',
      run: async ({ pool, flags }) => {
        const raw = optional(flags, 'limit');
        const limit = raw === undefined ? 100 : Number(raw);
        if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit must be an integer from 1 to 10000');
        return listDeadLetters(pool, limit);
      },
    },
    show: {
      usage: '<alert_id>',
      run: async ({ pool, flags }) => {
        const id = positional(flags, 0, 'alert_id');
        const found = await showAlert(pool, id);
        if (!found) throw new Refused('not_found', `no alert ${id}`);
        return { alert: found };
      },
    },
    replay: {
      usage: '<alert_id>   (dead or stuck pending alerts only; needs NATS_URL/NATS_PREFIX; republished under a new message id)',
      run: async ({ pool, flags, env }) => {
        const nats = natsSettings(env);
        try {
          return await replayAlert(pool, nats.url, nats.prefix, positional(flags, 0, 'alert_id'), { streamReplicas: nats.streamReplicas });
        } catch (err) {
          if (err instanceof Error && err.name === 'ReplayRefused') throw new Refused(/^no alert/.test(err.message) ? 'not_found' : 'refused', err.message);
          if (err instanceof Error && err.name === 'NatsError') throw new Refused('nats_unavailable', `cannot reach NATS at NATS_URL: ${err.message}`);
          throw err;
        }
      },
    },
  },
};
