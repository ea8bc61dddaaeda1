import { env, taskSealShape } from '@platform/config';
import { z } from 'zod';

/** Environment of the delivery side; spread into the service's config schema. */
export const deliveryConfigShape = {
  /** Opens sealed `email.send` args (identity seals codes and links with TASK_SEAL_KEY). */
  ...taskSealShape,
  /** Prefix of the work-queue topics and worker group; empty in production, unique in tests. */
  QUEUE_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/)
    .max(100)
    .default(''),
  /** How long a claimed delivery is held without a heartbeat before another worker may take it. */
  DELIVERY_LEASE_MS: env.positiveInt().default(60_000),
  /** How often the reconciler looks for due or stuck deliveries. */
  DELIVERY_RECONCILE_INTERVAL_MS: env.positiveInt().default(5_000),
  /** A submitted delivery still unclaimed after this long is submitted again. */
  DELIVERY_RESUBMIT_AFTER_MS: env.positiveInt().default(60_000),
  DELIVERY_HTTP_TIMEOUT_MS: env.positiveInt().default(10_000),
  /** Allow loopback/private destinations (tests, local development only). */
  DELIVERY_ALLOW_PRIVATE_NETWORKS: env.boolean(false),
  /** Recipients per e-mail batch (one queue task each). */
  DELIVERY_EMAIL_BATCH_SIZE: env.positiveInt().max(1000).default(200),
  /** Partitions of the default queue handled in parallel by one replica. */
  DEFAULT_QUEUE_CONCURRENCY: env.positiveInt().max(64).default(4),
  /**
   * SMTP host names (or IPs) that may resolve to loopback or private addresses (a relay on the
   * host or in the cluster), comma-separated; metadata and link-local addresses stay refused.
   * Every other SMTP host must be public unless DELIVERY_ALLOW_PRIVATE_NETWORKS is on.
   */
  SMTP_PRIVATE_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine((hosts) => hosts.length <= 50 && hosts.every((h) => /^[a-z0-9.:_[\]-]{1,253}$/.test(h)), {
      message: 'must be a comma-separated list of at most 50 host names or IP addresses',
    }),
  /** PEM file of an extra CA for the SMTP server's certificate (a private mail relay). */
  SMTP_EXTRA_CA_FILE: z.string().optional(),
  DINGTALK_API_BASE: z.url().default('https://oapi.dingtalk.com'),
  WECOM_API_BASE: z.url().default('https://qyapi.weixin.qq.com'),
  FEISHU_API_BASE: z.url().default('https://open.feishu.cn'),
};

export type DeliveryConfig = z.infer<z.ZodObject<typeof deliveryConfigShape>>;
