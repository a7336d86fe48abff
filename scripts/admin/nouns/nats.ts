import { z } from 'zod';
import { ConfigError, env as envSchemas, loadConfig, natsServersForDisplay } from '@evidence-record/platform';
import { UsageError } from '../cli';

/** What a verb that publishes to JetStream needs: the servers, the stream prefix, the replicas of a stream it may create. */
export interface NatsSettings {
  url: string;
  prefix: string;
  streamReplicas: number;
  /** The servers as they may be printed (no credentials). */
  display: string;
}

// The services' own validation of each variable (a NATS_URL the services would refuse is refused here too).
const NatsSettingsSchema = z.object({ NATS_URL: envSchemas.natsUrl, NATS_PREFIX: envSchemas.prefix, NATS_STREAM_REPLICAS: envSchemas.natsStreamReplicas });

/** The NATS settings from the CLI's configuration (environment, stack file, defaults), checked as the services check them. */
export function natsSettings(env: NodeJS.ProcessEnv): NatsSettings {
  try {
    const c = loadConfig(NatsSettingsSchema, { NATS_URL: env.NATS_URL, NATS_PREFIX: env.NATS_PREFIX, NATS_STREAM_REPLICAS: env.NATS_STREAM_REPLICAS });
    return { url: c.NATS_URL, prefix: c.NATS_PREFIX, streamReplicas: c.NATS_STREAM_REPLICAS, display: natsServersForDisplay(c.NATS_URL) };
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}
