export { createKafka, parseBrokers, KafkaClient, type CreateKafkaOptions, type TopicMode } from './client.js';
export {
  TOPIC_CATALOG,
  KAFKA_SERVICES,
  catalogEntry,
  catalogEntryOf,
  catalogWithDeadLetters,
  deadLetterDeclaration,
  isQueueTopic,
  platformTopics,
  queuePartitions,
  topicsOfService,
  serviceTopics,
  type KafkaService,
  type TopicPrefixes,
  type TopicDeclaration,
} from './topic-catalog.js';
export {
  checkTopics,
  provisionTopics,
  requiredPartitions,
  topicPlan,
  type PartitionOverrides,
  type ProvisionOptions,
  type ProvisionReport,
  type TopicPlan,
} from './topic-provisioning.js';
export { Producer, createProducer, type PublishMessage, type RawMessage } from './producer.js';
export {
  runConsumer,
  type ConsumedMessage,
  type ConsumerHandle,
  type MessageHandler,
  type RunConsumerOptions,
} from './consumer.js';
export {
  RedisProcessedStore,
  type ProcessedStore,
  type RedisProcessedStoreOptions,
} from './processed-store.js';
export {
  TaskQueue,
  TaskWorker,
  type TaskHandler,
  type TaskMeta,
  type TaskQueueOptions,
  type TaskWorkerOptions,
} from './tasks.js';
export {
  buildTask,
  type EnqueueOptions,
  type OutgoingTask,
  type TaskArgsCipher,
  type TaskMessage,
} from './task-message.js';
export {
  ensureTopics,
  ensurePlatformTopicsInBackground,
  consumerLag,
  deleteTopics,
  topicPartitionCounts,
  type ConsumerLag,
  type EnsureTopicsOptions,
  type PartitionLag,
  type TopicSpec,
} from './admin.js';
export {
  Topics,
  QUEUES,
  queueTopic,
  workerGroup,
  deadLetterTopic,
  isDeadLetterTopic,
  isQueueName,
  DEAD_LETTER_SUFFIX,
  type QueueName,
  type Topic,
} from './topics.js';
export {
  consumerGroupLags,
  groupIsStable,
  groupMembers,
  pendingCounts,
  scanPending,
  type PendingScan,
  type PendingScanOptions,
} from './queue-state.js';
export {
  TaskStateReporter,
  readTaskStates,
  taskStateKey,
  type ConsumerObserver,
  type TaskCounts,
} from './task-states.js';
export { Headers, JSON_CONTENT_TYPE } from './headers.js';
export { NonRetryableError } from './errors.js';
export {
  runAgentDirectoryConsumer,
  type AgentDirectoryChange,
  type AgentDirectoryConsumerOptions,
} from './agent-directory.js';
export { runBatchConsumer, type RunBatchConsumerOptions } from './batch-consumer.js';
export type { BatchMessage } from './batch-message.js';
export { producerSpan } from './message-telemetry.js';
