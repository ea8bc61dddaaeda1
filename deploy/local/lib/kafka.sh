# shellcheck shell=bash
# Apache Kafka for deploy/local/stack.sh (sourced by it): one KRaft node (broker + controller) run
# from the cached jars, its config files (regenerated on every start), storage format, start, wait
# and stop. Reads HOST, KAFKA_*, LOG_DIR, RUN_DIR and START_TIMEOUT from stack.sh.

KAFKA_MAIN="kafka.Kafka"
kafka_running() { pid_alive "$(read_pid kafka)" "$KAFKA_MAIN $KAFKA_DATA/server.properties"; }

kafka_java() { # java for short-lived tools: small heap, quiet logging
  "$(java_cmd)" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$KAFKA_DATA/tools-log4j.properties" -cp "$KAFKA_LIBS/*" "$@"
}

# --- config and storage -----------------------------------------------------------------------
kafka_write_config() {
  mkdir -p "$KAFKA_DATA/data"
  cat >"$KAFKA_DATA/server.properties" <<EOF
# written by deploy/local/stack.sh on every 'up' (single-node KRaft: broker + controller)
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$KAFKA_DATA/data
num.partitions=3
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
auto.create.topics.enable=true
delete.topic.enable=true
group.initial.rebalance.delay.ms=0
num.network.threads=2
num.io.threads=4
log.retention.hours=24
log.segment.bytes=67108864
log.retention.check.interval.ms=300000
EOF
  cat >"$KAFKA_DATA/log4j.properties" <<'EOF'
# broker logging (log4j 1.x via reload4j): everything to stdout, which stack.sh sends to .stack/logs/kafka.log
log4j.rootLogger=INFO, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c{1})%n
# chatty at INFO: per-partition, per-segment and per-request lines
log4j.logger.kafka=INFO
log4j.logger.org.apache.kafka=INFO
log4j.logger.kafka.request.logger=WARN
log4j.logger.kafka.network.RequestChannel$=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log=WARN
log4j.logger.kafka.cluster=WARN
log4j.logger.kafka.server.ReplicaFetcherManager=WARN
log4j.logger.kafka.server.ReplicaAlterLogDirsManager=WARN
log4j.logger.org.apache.kafka.storage.internals.log=WARN
log4j.logger.org.apache.kafka.raft=WARN
log4j.logger.org.apache.kafka.image=WARN
log4j.logger.org.apache.kafka.metadata=WARN
log4j.logger.org.apache.kafka.controller=WARN
log4j.logger.org.apache.kafka.clients=WARN
log4j.logger.org.apache.kafka.common.utils.AppInfoParser=WARN
log4j.logger.org.apache.kafka.common.config.AbstractConfig=WARN
log4j.logger.kafka.coordinator=WARN
log4j.logger.org.apache.kafka.coordinator=WARN
# consumer-group joins/rebalances are worth seeing when debugging consumers
log4j.logger.kafka.coordinator.group=INFO
log4j.logger.org.apache.kafka.coordinator.group=INFO
log4j.logger.kafka.coordinator.group.GroupMetadataManager=WARN
log4j.logger.kafka.server.metadata=WARN
log4j.logger.kafka.server.KafkaConfig=WARN
log4j.logger.kafka.utils.Log4jControllerRegistration$=WARN
log4j.logger.kafka.authorizer.logger=WARN
log4j.logger.org.apache.kafka.server.util.FileLock=WARN
# thread start/stop chatter at startup and shutdown
log4j.logger.kafka.server.ClientQuotaManager$ThrottledChannelReaper=WARN
log4j.logger.kafka.server.DelayedOperationPurgatory$ExpiredOperationReaper=WARN
log4j.logger.kafka.server.NodeToControllerRequestThread=WARN
log4j.logger.kafka.raft.TimingWheelExpirationService$ExpiredOperationReaper=WARN
log4j.logger.org.apache.kafka.queue.KafkaEventQueue=WARN
log4j.logger.org.apache.kafka.server.util.timer=WARN
log4j.logger.org.apache.kafka.common.metrics=WARN
log4j.logger.org.apache.kafka.common.utils.LoggingSignalHandler=WARN
log4j.logger.org.apache.kafka.common.security=WARN
log4j.logger.kafka.network.ConnectionQuotas=WARN
log4j.logger.org.apache.kafka.server.network.EndpointReadyFutures=WARN
EOF
  cat >"$KAFKA_DATA/tools-log4j.properties" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

kafka_format() {
  if [ -f "$KAFKA_DATA/data/meta.properties" ]; then
    return
  fi
  local id
  if [ -s "$KAFKA_DATA/cluster.id" ]; then
    id="$(cat "$KAFKA_DATA/cluster.id")"
  else
    id="$(kafka_java kafka.tools.StorageTool random-uuid 2>>"$LOG_DIR/kafka.log" | tail -n1)"
    [ -n "$id" ] || fail_start kafka "$LOG_DIR/kafka.log" "kafka.tools.StorageTool random-uuid failed"
    printf '%s\n' "$id" >"$KAFKA_DATA/cluster.id"
  fi
  log "formatting kafka storage (cluster id $id)"
  kafka_java kafka.tools.StorageTool format -t "$id" -c "$KAFKA_DATA/server.properties" --ignore-formatted \
    >>"$LOG_DIR/kafka.log" 2>&1 ||
    fail_start kafka "$LOG_DIR/kafka.log" "kafka.tools.StorageTool format failed"
}

# --- start, wait, stop ------------------------------------------------------------------------
kafka_start() {
  kafka_write_config
  touch "$LOG_DIR/kafka.log"
  kafka_format
  KAFKA_LOG_OFFSET="$(byte_size "$LOG_DIR/kafka.log")"
  log "starting kafka $KAFKA_VERSION on $HOST:$KAFKA_PORT (controller $HOST:$KAFKA_CONTROLLER_PORT)"
  spawn "$LOG_DIR/kafka.log" "$(java_cmd)" -Xms256m -Xmx1g -XX:+UseG1GC -XX:MaxGCPauseMillis=20 \
    -XX:InitiatingHeapOccupancyPercent=35 -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError \
    -Djava.awt.headless=true -Dkafka.logs.dir="$LOG_DIR" \
    -Dlog4j.configuration="file:$KAFKA_DATA/log4j.properties" \
    -cp "$KAFKA_LIBS/*" "$KAFKA_MAIN" "$KAFKA_DATA/server.properties" >"$(pidfile kafka)"
}

kafka_started_logged() {
  # (process substitution, not a pipe: grep -q exiting early must not fail a pipefail pipeline)
  grep -q "Kafka Server started" < <(tail -c +"$((${KAFKA_LOG_OFFSET:-0} + 1))" "$LOG_DIR/kafka.log" 2>/dev/null)
}

kafka_wait() {
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! { kafka_started_logged && port_listening "$KAFKA_PORT"; }; do
    kafka_running || fail_start kafka "$LOG_DIR/kafka.log" "the kafka java process exited"
    [ "$SECONDS" -lt "$deadline" ] || fail_start kafka "$LOG_DIR/kafka.log" "no 'Kafka Server started' after ${START_TIMEOUT}s"
    sleep 0.25
  done
  # end to end: a real client lists topics through the broker listener
  if ! kafka_java org.apache.kafka.tools.TopicCommand --bootstrap-server "$HOST:$KAFKA_PORT" --list \
    >/dev/null 2>"$RUN_DIR/kafka-check.err"; then
    cat "$RUN_DIR/kafka-check.err" >>"$LOG_DIR/kafka.log"
    fail_start kafka "$LOG_DIR/kafka.log" "TopicCommand --list against $HOST:$KAFKA_PORT failed"
  fi
}

kafka_wait_listening() {
  local deadline=$((SECONDS + START_TIMEOUT))
  while ! port_listening "$KAFKA_PORT"; do
    kafka_running || fail_start kafka "$LOG_DIR/kafka.log" "the kafka java process exited"
    [ "$SECONDS" -lt "$deadline" ] || fail_start kafka "$LOG_DIR/kafka.log" "process is running but $HOST:$KAFKA_PORT is not listening after ${START_TIMEOUT}s"
    sleep 0.25
  done
}

kafka_stop() {
  if kafka_running; then
    log "stopping kafka (SIGTERM, controlled shutdown)"
    stop_pid kafka "$(read_pid kafka)" 60
  fi
  rm -f "$(pidfile kafka)"
}
