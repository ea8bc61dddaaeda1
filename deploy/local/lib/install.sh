# shellcheck shell=bash
# The install step of deploy/local/stack.sh (sourced by it): apt packages (PostgreSQL, Redis, Java,
# Maven), the Kafka jars via Maven, FerretDB built from its Go module. Each step is skipped when its
# result is already there; one installer at a time per machine (a lock in CACHE_DIR).
# Reads the versions, CACHE_DIR and KAFKA_*/FERRETDB_* paths from stack.sh.

# --- tool locations ---------------------------------------------------------------------------
go_cmd() {
  if have go; then
    command -v go
  elif [ -x /usr/local/go/bin/go ]; then
    printf '%s' /usr/local/go/bin/go
  fi
}

java_cmd() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    printf '%s' "$JAVA_HOME/bin/java"
  else
    command -v java || true
  fi
}

# --- apt: PostgreSQL, Redis, Java, Maven ------------------------------------------------------
APT_UPDATED=0
apt_install() {
  is_root || die "need root to apt-get install $* (or install it yourself and re-run)"
  if [ "$APT_UPDATED" -eq 0 ]; then
    log "apt-get update"
    apt-get update -qq
    APT_UPDATED=1
  fi
  log "apt-get install -y $*"
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

install_postgres() {
  if [ -n "$(pg_bin_dir)" ]; then
    return
  fi
  log "installing PostgreSQL 15 server + contrib (apt)"
  timed "postgres install" apt_install postgresql-15 postgresql-contrib-15
  [ -n "$(pg_bin_dir)" ] || die "PostgreSQL install did not provide /usr/lib/postgresql/*/bin/postgres"
}

install_redis() {
  if have redis-server && have redis-cli; then
    return
  fi
  log "installing redis-server (apt)"
  timed "redis install" apt_install redis-server redis-tools
}

install_java_tools() {
  if [ -z "$(java_cmd)" ]; then
    log "installing a Java 17 runtime (apt)"
    timed "java install" apt_install openjdk-17-jre-headless
  fi
  if ! have mvn; then
    log "installing Maven (apt)"
    timed "maven install" apt_install maven
  fi
}

# --- Kafka jars (Maven Central, ~/.m2 as the cache) -------------------------------------------
kafka_libs_stamp() { sha256sum "$KAFKA_POM" | cut -c1-16; }

kafka_installed() {
  [ -f "$KAFKA_LIBS/.complete" ] &&
    [ "$(cat "$KAFKA_LIBS/.complete")" = "$(kafka_libs_stamp)" ] &&
    [ -f "$KAFKA_LIBS/kafka_${KAFKA_SCALA}-${KAFKA_VERSION}.jar" ]
}

fetch_kafka() {
  local tmp="$KAFKA_HOME/libs.tmp.$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  # -B: batch mode (no colours, no stdin); the local repository (~/.m2) is the download cache
  if ! mvn -B -q -f "$KAFKA_POM" dependency:copy-dependencies \
    -DoutputDirectory="$tmp" -DincludeScope=runtime >"$KAFKA_HOME/mvn.log" 2>&1; then
    log_tail "$KAFKA_HOME/mvn.log"
    rm -rf "$tmp"
    die "fetching Kafka $KAFKA_VERSION jars from Maven Central failed (log: $KAFKA_HOME/mvn.log)"
  fi
  kafka_libs_stamp >"$tmp/.complete"
  rm -rf "$KAFKA_LIBS"
  mv "$tmp" "$KAFKA_LIBS"
}

install_kafka() {
  if kafka_installed; then
    return
  fi
  install_java_tools
  mkdir -p "$KAFKA_HOME"
  log "fetching Apache Kafka $KAFKA_VERSION (Scala $KAFKA_SCALA) jars from Maven Central into $KAFKA_LIBS"
  timed "kafka jars" fetch_kafka
  log "kafka: $(find "$KAFKA_LIBS" -name '*.jar' | wc -l) jars, $(du -sh "$KAFKA_LIBS" | cut -f1)"
}

# --- FerretDB (built from the Go module proxy's source) ---------------------------------------
ferretdb_installed() {
  local v
  [ -x "$FERRETDB_BIN" ] || return 1
  v="$("$FERRETDB_BIN" --version 2>/dev/null)" || return 1
  grep -qx "version: $FERRETDB_VERSION" <<<"$v"
}

# FerretDB is built from its Go module (fetched from the Go module proxy) rather than with
# `go install …@version`, for two reasons:
#  * `go install pkg@version` also asks the proxy for the module's version list (deprecation
#    check); that listing is not reachable from this network, so it fails;
#  * FerretDB embeds its version from build/version/version.txt, a file its release tooling
#    generates; a binary built without it panics at start ("Invalid build/version/version.txt").
# So: download the module, copy it to a writable build dir, write version.txt, `go build`.
build_ferretdb() {
  local go src dir
  go="$(go_cmd)"
  [ -n "$go" ] || die "Go is required to build FerretDB (expected 'go' on PATH or /usr/local/go/bin/go)"
  export GOFLAGS="${GOFLAGS:-} -buildvcs=false"
  : >"$CACHE_DIR/ferretdb-build.log"
  dir="$("$go" mod download -json "$FERRETDB_MODULE@$FERRETDB_VERSION" 2>>"$CACHE_DIR/ferretdb-build.log" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')"
  if [ -z "$dir" ] || [ ! -f "$dir/go.mod" ]; then
    die "go mod download $FERRETDB_MODULE@$FERRETDB_VERSION failed"
  fi
  src="$CACHE_DIR/build/ferretdb-$FERRETDB_VERSION"
  rm -rf "$src"
  mkdir -p "$(dirname "$src")" "$(dirname "$FERRETDB_BIN")"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
  printf '%s\n' "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  printf '%s\n' "agent-platform-local" >"$src/build/version/package.txt"
  if ! (cd "$src" && CGO_ENABLED=0 "$go" build -trimpath -o "$FERRETDB_BIN.tmp" ./cmd/ferretdb) \
    >>"$CACHE_DIR/ferretdb-build.log" 2>&1; then
    log_tail "$CACHE_DIR/ferretdb-build.log"
    die "building FerretDB $FERRETDB_VERSION failed (log: $CACHE_DIR/ferretdb-build.log)"
  fi
  mv "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
  rm -rf "$src"
}

install_ferretdb() {
  if ferretdb_installed; then
    return
  fi
  log "building FerretDB $FERRETDB_VERSION from the Go module proxy into $FERRETDB_BIN (takes a few minutes on 2 cores)"
  timed "ferretdb build" build_ferretdb
  ferretdb_installed || die "FerretDB build finished but $FERRETDB_BIN --version does not report $FERRETDB_VERSION"
}

# --- Prometheus and Jaeger (built from their Go modules by deploy/tools, cached) -------------
# Resolved once here so the start functions find them in PROMETHEUS_BIN / JAEGER_BIN (./platform
# exports both already; then nothing is checked again).
install_telemetry_tools() {
  local dir
  if [ -z "${PROMETHEUS_BIN:-}" ]; then
    dir="$(bash "$REPO_ROOT/deploy/tools/install-prometheus.sh")" || die "Prometheus could not be installed (see above)"
    export PROMETHEUS_BIN="$dir/prometheus"
  fi
  if [ -z "${JAEGER_BIN:-}" ]; then
    JAEGER_BIN="$(bash "$REPO_ROOT/deploy/tools/install-jaeger.sh")" || die "Jaeger could not be installed (see above)"
    export JAEGER_BIN
  fi
}

# --- the 'install' command (also the first step of 'up') --------------------------------------
cmd_install() {
  local t0
  t0="$(now)"
  mkdir -p "$CACHE_DIR"
  # one installer at a time per machine (several work trees share the cache)
  exec 8>"$CACHE_DIR/.install.lock"
  flock -w 1800 8 || die "timed out waiting for another install to finish ($CACHE_DIR/.install.lock)"
  install_postgres
  install_redis
  install_kafka
  install_ferretdb
  install_telemetry_tools
  exec 8>&-
  log "install: everything present ($(elapsed "$t0"))"
}
