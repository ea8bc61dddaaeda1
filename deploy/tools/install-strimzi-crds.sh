#!/usr/bin/env bash
# Makes sure the Strimzi CRD schemas (KafkaTopic, KafkaUser; kafka.strimzi.io) that kubeconform
# validates deploy/k8s/components/strimzi-kafka against are available, and prints their folder:
#
#   bash deploy/tools/install-strimzi-crds.sh   # -> ~/.cache/agent-platform/k8s-schemas/strimzi-0.45.0
#
# Strimzi is a Java project: its CRDs are not a Go module, and io.strimzi:api on Maven Central
# ships the model classes, not the YAML. So the CRDs are generated the way Strimzi's own build
# generates them: its crd-generator (io.strimzi:crd-generator) run over the api classes
# (io.strimzi:api), both pinned at $STRIMZI_VERSION and fetched by Maven (which checks the
# repository's checksums). deploy/tools/crd-schemas.mjs then turns them into strict JSON schemas.
# Needs Java 17 and Maven; later runs reuse the folder (no network).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_DIR="${AGENT_PLATFORM_CACHE_DIR:-$HOME/.cache/agent-platform}"
STRIMZI_VERSION=0.45.0
OUT="${STRIMZI_SCHEMA_DIR:-$CACHE_DIR/k8s-schemas/strimzi-$STRIMZI_VERSION}"

say() { printf '[strimzi-crds] %s\n' "$*" >&2; }

if [ -f "$OUT/.complete" ]; then
  printf '%s\n' "$OUT"
  exit 0
fi
command -v java >/dev/null || { say "no java: install a JDK 17 (apt-get install openjdk-17-jdk-headless)"; exit 1; }
command -v mvn >/dev/null || { say "no mvn: install Maven (apt-get install maven)"; exit 1; }

mkdir -p "$CACHE_DIR"
exec 8>"$CACHE_DIR/.strimzi-crds.lock"
flock -w 900 8 || { say "another install holds $CACHE_DIR/.strimzi-crds.lock"; exit 1; }
if [ -f "$OUT/.complete" ]; then
  printf '%s\n' "$OUT"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>agent-platform</groupId>
  <artifactId>strimzi-crds</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>io.strimzi</groupId><artifactId>api</artifactId><version>$STRIMZI_VERSION</version></dependency>
    <dependency><groupId>io.strimzi</groupId><artifactId>crd-generator</artifactId><version>$STRIMZI_VERSION</version></dependency>
  </dependencies>
</project>
POM
say "fetching io.strimzi:api and io.strimzi:crd-generator $STRIMZI_VERSION (Maven)"
mvn -q -B --strict-checksums -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$work/lib" >&2
say "generating the KafkaTopic and KafkaUser CRDs"
java -cp "$work/lib/*" io.strimzi.crdgenerator.CrdGenerator --yaml --crd-api-version v1 \
  "io.strimzi.api.kafka.model.topic.KafkaTopic=$work/kafkatopic.yaml" \
  "io.strimzi.api.kafka.model.user.KafkaUser=$work/kafkauser.yaml" 2>/dev/null
rm -rf "$OUT"
node "$HERE/crd-schemas.mjs" "$OUT" "$work/kafkatopic.yaml" "$work/kafkauser.yaml"
touch "$OUT/.complete"
printf '%s\n' "$OUT"
