import { listDeadLetters, replayAlert, showAlert } from '@evidence-record/email-worker';
import { optional, positional, UsageError, type Noun } from '../cli';

/** Watch alerts: dead letters the email worker gave up on, and their replay. */
export const alert: Noun = {
  noun: 'alert',
  summary: 'watch alert emails: list dead letters, show one alert, replay a dead letter',
  verbs: {
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
        if (!found) throw new Error(`no alert ${id}`);
        return { alert: found };
      },
    },
    replay: {
      usage: '<alert_id>   (dead or stuck pending alerts only; needs NATS_URL/NATS_PREFIX; republished under a new message id)',
      run: async ({ pool, flags, env }) =>
        replayAlert(pool, env.NATS_URL ?? 'nats://127.0.0.1:4222', env.NATS_PREFIX ?? '', positional(flags, 0, 'alert_id')),
    },
  },
};
